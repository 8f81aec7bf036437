import { readFileSync } from 'node:fs';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { expect, test } from '../support/fixtures.js';

// `pnpm demo --metrics`: the demo's kit with @verify-kit/otel into a Prometheus exporter at
// GET /metrics (the global setup starts it so). After one verification, a single scrape holds the
// series the package's README names. The limits' refusals are the one series a verification leaves
// no point in: nobody was refused.

/** The README's table: each metric's Prometheus name (its second column's first name). */
function documentedSeries(): string[] {
  const readme = readFileSync(new URL('../../packages/otel/README.md', import.meta.url), 'utf8');
  const table = readme.split('\n## Metrics\n')[1]?.split('\n## ')[0] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `verify_kit.'))
    .map((line) => /`([\w]+)`/.exec(line.split(' | ')[1] ?? '')?.[1] ?? '');
}

const NOT_AFTER_ONE_VERIFICATION = ['verify_kit_limit_refusals_total'];

test('a scrape after a verification finds the documented series', async ({ site, demo, request }) => {
  await site.signInVerified();
  // The approval's webhook is counted before the demo answers it: once the sandbox saw that answer.
  const { identificationId } = await site.boundIds();
  const control = createSandboxControl(demo.sandbox);
  await expect
    .poll(async () => {
      const deliveries = await control.deliveries({ identificationId });
      return deliveries.some((d) => d.eventType === 'identification.approved' && d.ok);
    })
    .toBe(true);

  const answer = await request.get(`${demo.url}/metrics`);
  expect(answer.status()).toBe(200);
  const scrape = await answer.text();
  const documented = documentedSeries();
  expect(documented).toContain('verify_kit_gate_decisions_total');
  const missing = documented
    .filter((name) => !NOT_AFTER_ONE_VERIFICATION.includes(name))
    .filter((name) => !new RegExp(`^${name}(\\{| )`, 'm').test(scrape));
  expect(missing).toEqual([]);
  // This person's walk through the gate and the service, as the series say it.
  expect(scrape).toMatch(/^verify_kit_gate_decisions_total\{result="granted",reason="read",source="read"/m);
  expect(scrape).toMatch(/^verify_kit_sessions_created_total\{owner="account"/m);
  expect(scrape).toMatch(
    /^verify_kit_webhooks_received_total\{result="accepted",event_type="identification\.approved"/m,
  );
  expect(scrape).toMatch(/^verify_kit_upstream_duration_count\{operation="getIdentification"/m);
});
