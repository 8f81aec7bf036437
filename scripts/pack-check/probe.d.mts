/** Probes the running express example (see probe.mjs); resolves with the status body it read. */
export function probeExpressExample(url: string): Promise<{ phase: string; status: string }>;
