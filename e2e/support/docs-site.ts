import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The documentation site as a reader gets it: built (VitePress, docs/dist) and served from
// 127.0.0.1 on a free port, each path answered with its file as a static host answers it.

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'docs', 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

export interface DocsSite {
  url: string;
  /** Every page's path, e.g. `/` and `/getting-started/express.html` (404.html aside). */
  pages: string[];
  close(): Promise<void>;
}

/** The file a path names: `/` is index.html, `/options` options.html; undefined outside dist. */
function fileOf(pathname: string): string | undefined {
  const path = join(dist, decodeURIComponent(pathname));
  if (!`${path}${sep}`.startsWith(`${dist}${sep}`)) return undefined;
  for (const candidate of [path, join(path, 'index.html'), `${path}.html`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : htmlFiles(path);
    return entry.name.endsWith('.html') && entry.name !== '404.html' ? [path] : [];
  });
}

/**
 * Builds the site when its sources changed since its last build (the repository's build runner,
 * a no-op otherwise: `pnpm test` has built it), then serves it.
 */
export async function serveDocs(): Promise<DocsSite> {
  execFileSync(process.execPath, [join(root, 'scripts/build/run.mjs'), '--quiet', '@verify-kit/docs'], {
    cwd: root,
    stdio: 'inherit',
  });
  const server = createServer((req, res) => {
    const file = fileOf(new URL(req.url ?? '/', 'http://docs').pathname);
    if (file === undefined) {
      res.writeHead(404, { 'content-type': TYPES['.html'] }).end(readFileSync(join(dist, '404.html')));
      return;
    }
    // Assets are named by their hash, as a host caches them: a page after the first loads its own.
    const cache = file.startsWith(join(dist, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache';
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': cache,
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pages = htmlFiles(dist).map((file) => {
    const path = `/${relative(dist, file).split(sep).join('/')}`;
    return path === '/index.html' ? '/' : path;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pages: pages.sort(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
