import { spawn } from 'node:child_process';

/** Runs a command; resolves with its output, rejects with the output when it exits non-zero. */
export function run(command, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`${command} ${args.join(' ')} (in ${cwd ?? process.cwd()}) exited ${code}:\n${output}`),
        );
    });
  });
}

/**
 * Starts a long-running command in its own process group and resolves once its output matches
 * `ready`. `stop()` ends the whole group: `npx` runs the program as a grandchild, which a signal to
 * `npx` alone would leave running (holding our pipes, so this process would never exit).
 */
export function start(command, args, { cwd, env, ready, timeoutMs = 15_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: 'pipe',
      detached: true,
    });
    const stopGroup = () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    let output = '';
    const timer = setTimeout(() => {
      stopGroup();
      reject(new Error(`${command} ${args.join(' ')} did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ match, stop: stopGroup });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited ${code} before it was ready:\n${output}`));
    });
  });
}
