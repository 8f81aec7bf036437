import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** The lock as one rename of a folder holding our pid: it appears with its pid, or not at all. */
function tryLock(path) {
  const mine = `${path}.${process.pid}`;
  rmSync(mine, { recursive: true, force: true });
  mkdirSync(mine);
  writeFileSync(join(mine, 'pid'), String(process.pid));
  try {
    renameSync(mine, path);
    return true;
  } catch (error) {
    rmSync(mine, { recursive: true, force: true });
    if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Runs `fn` holding a lock folder, so two builds in the same tree (two `pnpm test` at once) never
 * write the same outputs together: the second waits for the first, then finds its work done. A lock
 * left by a process that is gone is taken over.
 */
export async function withLock(path, fn) {
  let told = false;
  while (!tryLock(path)) {
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
    } catch {
      continue; // Released in between.
    }
    if (!alive(pid)) {
      rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (!told) process.stdout.write(`build: waiting for another build in this tree (pid ${pid})\n`);
    told = true;
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
