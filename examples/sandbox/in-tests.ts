import { startSandbox } from '@verify-kit/sandbox';

const sandbox = await startSandbox({ reviewDelayMs: 0 }); // 127.0.0.1, random port
// sandbox.url = 'http://127.0.0.1:PORT', sandbox.apiKey, sandbox.port, sandbox.baseUrl
sandbox.advanceClock(31 * 60_000); // expire sessions without waiting
sandbox.now(); // the sandbox clock, advances included
await sandbox.close();
