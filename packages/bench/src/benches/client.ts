import { createClient } from '@verify-kit/client';
import { Agent, request } from 'undici';
import { startChild } from '../harness/child.js';
import type { SandboxCommands } from '../harness/sandbox-process.js';
import { compareThroughput, perRoundRatios, throughputRatio } from '../harness/throughput.js';
import { round } from '../stats.js';
import type { Bench } from './bench.js';

const CONCURRENCY = 16;
const LOAD = { connections: CONCURRENCY, durationSec: 0.25, rounds: 30, warmupSec: 0.5 };

/**
 * client.getIdentification against a bare undici.request of the same URL: one shared Agent (the same
 * connections for both), rounds alternating which goes first, the median and spread of the ratios.
 */
export const bench: Bench = {
  timeoutMs: 60_000,
  async run() {
    const sandbox = startChild<SandboxCommands>(new URL('../harness/sandbox-process.ts', import.meta.url));
    const dispatcher = new Agent({ connections: CONCURRENCY });
    try {
      const { url, apiKey } = await sandbox.call('start', { reviewDelayMs: 0 });
      const client = createClient({ baseUrl: url, apiKey, dispatcher });
      try {
        const { identificationId } = await client.createSession({
          workflowId: 'default',
          locale: 'en',
          sendOTP: false,
        });
        const target = `${url}/api/v1/identifications/${identificationId}`;
        const bare = async () => {
          const answer = await request(target, { dispatcher, headers: { 'x-api-key': apiKey } });
          if (answer.statusCode !== 200) throw new Error(`undici.request: ${answer.statusCode}`);
          return answer.body.json();
        };
        const typed = () => client.getIdentification(identificationId);
        const { undici, client: viaClient } = await compareThroughput(
          [
            { name: 'undici', call: bare },
            { name: 'client', call: typed },
          ],
          LOAD,
        );
        const ratios = perRoundRatios(viaClient!, undici!);
        return {
          figures: { 'client.throughputRatioVsUndici': throughputRatio(viaClient!, undici!) },
          details: {
            concurrency: CONCURRENCY,
            roundMs: LOAD.durationSec * 1000,
            ratio: 'median over rounds of (client calls/s / undici calls/s) of the same round',
            spread: { min: round(Math.min(...ratios)), max: round(Math.max(...ratios)) },
            perRoundRatios: ratios,
            callsPerSec: { undici: undici!.perRound, client: viaClient!.perRound },
          },
        };
      } finally {
        await client.close();
      }
    } finally {
      await dispatcher.close();
      await sandbox.stop();
    }
  },
};
