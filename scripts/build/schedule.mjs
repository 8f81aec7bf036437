import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CONCURRENCY = 2;

/** Runs a project's build script as pnpm would: in its folder, with its and the root's bins on PATH. */
function runScript(root, project) {
  const dir = join(root, project.dir);
  const bins = [join(dir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')];
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', project.build], {
      cwd: dir,
      env: { ...process.env, PATH: [...bins, process.env.PATH].join(':') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

/**
 * Builds those of `order` (dependencies first) that `needsBuild`, at most CONCURRENCY at once, each
 * once everything it depends on is built; after a failure, starts no more. False when one failed.
 */
export async function buildAll(root, order, needsBuild, { onBuilt, onEnd }) {
  const done = new Set(order.filter((project) => !needsBuild(project)).map((project) => project.name));
  const pending = order.filter((project) => !done.has(project.name));
  const running = new Set();
  let failed = false;
  await new Promise((resolve) => {
    const next = () => {
      if (pending.length === 0 && running.size === 0) return resolve();
      if (failed) return running.size === 0 && resolve();
      for (const project of [...pending]) {
        if (running.size >= CONCURRENCY) break;
        if (!project.after.every((name) => done.has(name))) continue;
        pending.splice(pending.indexOf(project), 1);
        running.add(project.name);
        const since = performance.now();
        runScript(root, project).then(({ ok, output }) => {
          running.delete(project.name);
          onEnd(project, ok, output, performance.now() - since);
          if (ok) {
            done.add(project.name);
            onBuilt(project);
          } else failed = true;
          next();
        });
      }
    };
    next();
  });
  return !failed;
}
