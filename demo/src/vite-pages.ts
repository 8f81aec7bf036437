import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import { PAGE_FILES } from './page-files.js';
import type { PageSource } from './page-source.js';

async function createViteServer(httpServer: Server, demoRoot: URL): Promise<ViteDevServer> {
  // Loaded only here: a production server (built pages) never needs Vite.
  const { createServer } = await import('vite');
  return createServer({
    configFile: fileURLToPath(new URL('vite.config.ts', demoRoot)),
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: httpServer } },
  });
}

/**
 * The pages straight from their sources, for development: Vite in middleware mode transforms the
 * scripts and styles on request and each page's HTML through `transformIndexHtml` (the shared
 * chrome, Vite's client). Nothing is built. Its hot-reload socket shares the demo's own server.
 * Vite starts at the first request, not before: the demo is up without waiting for it.
 */
export function vitePages(httpServer: Server, demoRoot: URL): PageSource {
  let vite: Promise<ViteDevServer> | undefined;
  const started = () => {
    vite ??= createViteServer(httpServer, demoRoot);
    return vite;
  };
  const pagesDir = new URL('pages/', demoRoot);
  return {
    assets: (req, res, next) => {
      started().then((server) => server.middlewares(req, res, next), next);
    },
    html: async (page) => {
      const file = PAGE_FILES[page];
      const [server, html] = await Promise.all([started(), readFile(new URL(file, pagesDir), 'utf8')]);
      return server.transformIndexHtml(`/${file}`, html);
    },
    close: async () => {
      await (await vite?.catch(() => undefined))?.close();
    },
  };
}
