import { Browser } from '@verify-kit/testkit';
import { expect, it } from 'vitest';
import { useStandInDemo } from './support/stand-in-demo.js';

/*
 * The demo's SIGTERM (cli.ts calls demo.shutdown): GET /ready, what the load balancer checks, turns
 * 503 first; the demo serves on through the drain with Connection: close; a long-poll open when it
 * closes gets its 200, not a reset.
 */

const env = useStandInDemo();

it('drains on shutdown: not ready first, still serving, the open long-poll answered', async () => {
  const person = new Browser(env.demo.url);
  expect((await person.post('/api/demo/sign-in', { name: 'Ada', email: 'ada@example.com' })).status).toBe(
    200,
  );
  expect((await person.post('/identity/session')).status).toBe(201);
  const ready = await person.get<{ ok: boolean }>('/ready');
  expect([ready.status, ready.json.ok]).toEqual([200, true]);
  const held = person.get<{ phase: string }>('/identity/status?wait=25&since=awaiting_user');
  await new Promise((resolve) => setTimeout(resolve, 200));

  const stopped = env.demo.shutdown(1000);
  const probe = await new Browser(env.demo.url).get<{ ok: boolean; draining: boolean }>('/ready');
  expect([probe.status, probe.json.ok, probe.json.draining]).toEqual([503, false, true]);
  const page = await person.get<{ user: unknown }>('/api/demo/me');
  expect(page.status).toBe(200);
  expect(page.headers.connection).toBe('close');

  await stopped;
  const answered = await held;
  expect([answered.status, answered.json.phase]).toEqual([200, 'awaiting_user']);
  expect(answered.headers.connection).toBe('close');
  await expect(fetch(`${env.demo.url}/ready`)).rejects.toThrow(); // closed: nothing listens any more
});
