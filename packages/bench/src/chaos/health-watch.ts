import { sleep } from '../stats.js';

/** What one instance's readiness route said: `ok`, `draining`, `bus down`, `store down`, `unreachable`, … */
export interface HealthSample {
  at: number;
  instance: string;
  state: string;
}

function stateOf(
  status: number,
  body: { ok?: boolean; draining?: boolean; bus?: string; store?: string },
): string {
  if (body.ok === true) return 'ok';
  if (body.draining === true) return 'draining';
  const parts = [body.bus === 'down' ? 'bus down' : '', body.store === 'down' ? 'store down' : ''].filter(
    Boolean,
  );
  return parts.length > 0 ? parts.join(', ') : `HTTP ${status}`;
}

/**
 * Reads every instance's readiness route (kit.health()) directly, every `everyMs`, until stopped:
 * what each instance reported during each fault.
 */
export function watchHealth(servers: { name: string; port: number }[], everyMs = 250) {
  const samples: HealthSample[] = [];
  let running = true;
  const loop = async (server: { name: string; port: number }) => {
    while (running) {
      const at = Date.now();
      let state: string;
      try {
        const res = await fetch(`http://127.0.0.1:${server.port}/ready`, {
          signal: AbortSignal.timeout(2000),
        });
        state = stateOf(res.status, (await res.json()) as Record<string, never>);
      } catch {
        state = 'unreachable';
      }
      samples.push({ at, instance: server.name, state });
      await sleep(everyMs);
    }
  };
  const loops = servers.map(loop);
  return {
    samples,
    /** Per instance, the states reported between `from` and `to`, consecutive repeats merged. */
    during(from: number, to: number): Record<string, string> {
      return Object.fromEntries(
        servers.map(({ name }) => {
          const states = samples
            .filter((s) => s.instance === name && s.at >= from && s.at <= to)
            .map((s) => s.state)
            .filter((state, i, all) => i === 0 || all[i - 1] !== state);
          return [name, states.join(' → ')];
        }),
      );
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
