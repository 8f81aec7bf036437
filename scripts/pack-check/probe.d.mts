/** Probes the running express example (see probe.mjs); resolves with the status body it read. */
export function probeExpressExample(
  url: string,
): Promise<{ phase: string; status: string; sessionCode: string; cookie: string }>;
/** Probes the running Hono example (see probe.mjs): the status body, the session's code, the visitor's Cookie header. */
export function probeHonoExample(
  url: string,
): Promise<{ phase: string; status: string; sessionCode: string; cookie: string }>;
/** Probes `next start` of the Next README's three files (see probe.mjs): as probeHonoExample. */
export function probeNextApp(
  url: string,
): Promise<{ phase: string; status: string; sessionCode: string; cookie: string }>;
