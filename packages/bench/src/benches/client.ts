import { createClient } from '@verify-kit/client';
import { Agent, request } from 'undici';
import { withSandbox } from '../harness/stack.js';
import { compareRatios } from '../harness/throughput.js';
import type { Bench } from './bench.js';

const CONCURRENCY = 16;
const LOAD = { connections: CONCURRENCY, durationSec: 0.25, rounds: 30, warmupSec: 0.5 };

/**
 * client.getIdentification against a bare undici.request of the same URL (its body read as JSON,
 * nothing else: no wrapper, no check per call): one shared Agent (the same connections for both),
 * rounds alternating which goes first, the median and spread of the ratios.
 */
export const bench: Bench = {
  timeoutMs: 60_000,
  async run() {
    const dispatcher = new Agent({ connections: CONCURRENCY });
    try {
      return await withSandbox(async ({ url, apiKey }) => {
        const client = createClient({ baseUrl: url, apiKey, dispatcher });
        try {
          const { identificationId } = await client.createSession({
            workflowId: 'default',
            locale: 'en',
            sendOTP: false,
          });
          const target = `${url}/api/v1/identifications/${identificationId}`;
          const options = { dispatcher, headers: { 'x-api-key': apiKey } };
          // The sandbox answers 200 (checked once here); the baseline is undici's request, nothing around it.
          const first = await request(target, options);
          await first.body.dump();
          if (first.statusCode !== 200) throw new Error(`undici.request: ${first.statusCode}`);
          const bare = () => request(target, options).then((answer) => answer.body.json());
          const typed = () => client.getIdentification(identificationId);
          const { ratios, details } = await compareRatios(
            [
              { name: 'undici', call: bare },
              { name: 'client', call: typed },
            ],
            LOAD,
            { clientVsUndici: ['client', 'undici'] },
          );
          const rounds = details.perRoundRatios.clientVsUndici;
          return {
            figures: { 'client.throughputRatioVsUndici': ratios.clientVsUndici },
            details: { ...details, spread: { min: Math.min(...rounds), max: Math.max(...rounds) } },
          };
        } finally {
          await client.close();
        }
      });
    } finally {
      await dispatcher.close();
    }
  },
};
