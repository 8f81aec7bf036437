import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './servers.js';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication: no password). */
  url: string;
  port: number;
  /** The cluster's directory (start again on it, and on `port`, to restart with the data). */
  dataDir: string;
  /** Stops the server (a fast shutdown, then SIGKILL); removes the data unless `dataDir` was given. Idempotent. */
  stop(): Promise<void>;
}

const MISSING =
  'PostgreSQL is not installed: the SQL store tests start a real PostgreSQL. ' +
  'Install it with `apt-get install postgresql` (CI does this in .ci/run).';

/** Debian's /usr/lib/postgresql/<newest version>/bin, else the directory of `postgres` on PATH. */
export function findPostgresBin(): string {
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((version) => existsSync(path.join(debian, version, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] !== undefined) return path.join(debian, versions[0], 'bin');
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, 'postgres')) && existsSync(path.join(dir, 'initdb')))
      return dir;
  }
  throw new Error(MISSING);
}

/**
 * PostgreSQL refuses to run as root (CI runs as root): there, every command runs as the `postgres`
 * system user Debian's package creates, through setpriv (which execs: the child is the server).
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error(`PostgreSQL refuses to run as root and there is no postgres user. ${MISSING}`);
  }
  return { uid: Number(uid), gid: Number(gid) };
}

function command(user: { uid: number; gid: number } | undefined, binary: string, args: string[]) {
  return user === undefined
    ? { file: binary, args }
    : {
        file: 'setpriv',
        args: [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', binary, ...args],
      };
}

function ownedBy(user: { uid: number; gid: number } | undefined, dir: string): void {
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
}

const exec = promisify(execFile);

/**
 * A fresh cluster in `data`: a copy of one initdb made once per machine and version (initdb takes
 * about 2 s; the copy a tenth of that), made in a directory of its own and renamed into place so
 * that concurrent test files never see half of one.
 */
async function initCluster(bin: string, user: { uid: number; gid: number } | undefined, data: string) {
  const tag = `${bin.replace(/[^\w]+/g, '-')}-${user?.uid ?? process.getuid?.() ?? 'user'}`;
  const template = path.join(tmpdir(), `verify-kit-pg-template${tag}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    const making = mkdtempSync(`${template}-making-`);
    ownedBy(user, making);
    const initdb = command(user, path.join(bin, 'initdb'), [
      ...['-D', path.join(making, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8'],
      ...['--locale=C', '--no-sync', '--no-instructions'],
    ]);
    await exec(initdb.file, initdb.args, { env: { ...process.env, LC_ALL: 'C' } });
    try {
      renameSync(path.join(making, 'data'), template);
    } catch {
      // Another test file made it first: theirs serves.
    }
    rmSync(making, { recursive: true, force: true });
  }
  const copy = command(user, 'cp', ['-a', template, data]);
  await exec(copy.file, copy.args);
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`postgres did not start:\n${output}`)), 15_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`postgres exited with ${code}:\n${output}`)));
  });
}

/**
 * A throw-away PostgreSQL on 127.0.0.1 and a free port, its socket directory beside its data in a
 * temporary directory, durability traded for speed (fsync off: a restart of the server keeps every
 * committed row, a crash of the machine would not). Debian's binaries (`apt-get install postgresql`);
 * as root, run as the `postgres` user. `dataDir` and `port`: start again on an earlier server's data.
 */
export async function startPostgresServer(
  options: { port?: number; dataDir?: string } = {},
): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const user = runAs();
  const base = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'verify-kit-pg-'));
  mkdirSync(base, { recursive: true });
  ownedBy(user, base);
  const data = path.join(base, 'data');
  if (!existsSync(path.join(data, 'PG_VERSION'))) await initCluster(bin, user, data);
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = options.port ?? (await freePort());
    const server = command(user, path.join(bin, 'postgres'), [
      ...['-D', data, '-p', String(port), '-k', base, '-h', '127.0.0.1'],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...['-c', 'max_connections=200', '-c', 'logging_collector=off'],
    ]);
    const child = spawn(server.file, server.args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    try {
      await waitForReady(child);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
      if (options.port !== undefined) break;
      continue;
    }
    child.stderr?.resume();
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir: base,
      stop() {
        stopped ??= new Promise<void>((resolve) => {
          const done = () => {
            if (options.dataDir === undefined) rmSync(base, { recursive: true, force: true });
            resolve();
          };
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(kill);
            done();
          });
          // SIGINT: PostgreSQL's fast shutdown (open connections are ended, not waited for).
          child.kill('SIGINT');
        });
        return stopped;
      },
    };
  }
  throw lastError;
}
