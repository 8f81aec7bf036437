import { describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { onFakeUpstream } from './red-team/app.js';
import { until } from './until.js';
import { startVerificationOn } from './verifications.js';

/**
 * A shell's app for describeOneMovePerApproval: the kit under /identity, `/api/data` gated (calling
 * `arrived()` as each request reaches it, before the gate), `POST /forget`.
 */
export type StartForgettingApp = (options: { baseUrl: string; apiKey: string; arrived(): void }) => Promise<{
  url: string;
  close(): Promise<void>;
}>;

/**
 * The approval's move is single-flight (issue 40, finding 8): concurrent gated requests holding one
 * pre-approval cookie, in flight together when the approval is read, come out with one approved
 * cookie between them (on the first answer); forget() with it leaves none of the copies passing.
 */
export function describeOneMovePerApproval(shell: string, apiKey: string, start: StartForgettingApp): void {
  describe(`${shell}: one approved cookie per pre-approval cookie`, () => {
    it('8 concurrent gated requests move it once; forget() with the new one leaves no copy passing', async () => {
      let arrived = 0;
      await onFakeUpstream(
        (upstream) => start({ baseUrl: upstream.url, apiKey, arrived: () => arrived++ }),
        async (app, upstream) => {
          const person = new Browser(app.url);
          const id = await startVerificationOn(upstream, person);
          upstream.statuses.set(id, 'APPROVED');
          // The service holds its answer until all eight are in flight (their visit's read joined).
          let release = () => {};
          upstream.hold = new Promise<void>((resolve) => {
            release = resolve;
          });
          const copies = Array.from({ length: 8 }, () => new Browser(app.url, person.cookies.clone()));
          arrived = 0;
          const answering = Promise.all(copies.map((copy) => copy.get('/api/data')));
          await until(() => arrived === 8, 'all eight reached the gate');
          await new Promise((resolve) => setTimeout(resolve, 20));
          upstream.hold = undefined;
          release();
          const answers = await answering;
          expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
          const moved = answers.flatMap((answer, at) =>
            answer.headers['set-cookie'] === undefined ? [] : [at],
          );
          expect(moved).toHaveLength(1);
          const mover = copies[moved[0] as number] as Browser;
          expect((await mover.post('/forget')).status).toBe(200);
          const after = await Promise.all([mover, ...copies].map((copy) => copy.get('/api/data')));
          expect(after.map((answer) => answer.status)).toEqual(Array(9).fill(403));
        },
      );
    });
  });
}
