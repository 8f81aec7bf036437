import { createClient } from '@verify-kit/client';
import { Agent, request } from 'undici';
import { startChild } from '../harness/child.js';
import type { SandboxCommands } from '../harness/sandbox-process.js';
import { median, round } from '../stats.js';
import type { Bench } from './bench.js';

const CONCURRENCY = 16;
const ROUND_MS = 250;
const ROUNDS = 30;

/** Runs `call` in CONCURRENCY loops for `ms`; returns completed calls per second. */
async function callsPerSec(call: () => Promise<unknown>, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await call();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * client.getIdentification against a bare undici.request of the same URL: one shared Agent (the same
 * connections for both), rounds alternating which goes first, the median and spread of the ratios.
 */
export const clientBench: Bench = {
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
        await callsPerSec(bare, 500);
        await callsPerSec(typed, 500);
        const undiciRounds: number[] = [];
        const clientRounds: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const order = i % 2 === 0 ? ([bare, typed] as const) : ([typed, bare] as const);
          for (const call of order) {
            const rate = await callsPerSec(call, ROUND_MS);
            (call === bare ? undiciRounds : clientRounds).push(Math.round(rate));
          }
        }
        const ratios = clientRounds.map((rate, i) => rate / undiciRounds[i]!);
        return {
          figures: { 'client.throughputRatioVsUndici': round(median(ratios)) },
          details: {
            concurrency: CONCURRENCY,
            roundMs: ROUND_MS,
            ratio: 'median over rounds of (client calls/s / undici calls/s) of the same round',
            spread: { min: round(Math.min(...ratios)), max: round(Math.max(...ratios)) },
            perRoundRatios: ratios.map((r) => round(r)),
            callsPerSec: { undici: undiciRounds, client: clientRounds },
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
