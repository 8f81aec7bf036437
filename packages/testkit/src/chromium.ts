import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Debian's Chromium, or CHROMIUM_PATH. Never a downloaded browser. */
export function chromiumExecutable(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium was not found at ${path}. Install the system's Chromium (Debian: \`apt-get install chromium\`) ` +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable. These tests never download a browser.',
    );
  }
  return path;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * What a camera reads from an image URL (e.g. the kit's `data:image/svg+xml,…` QR): Chromium paints
 * it at 300 px (a headless screenshot, as a person's browser would), then zbar's `zbarimg` decodes the
 * picture. Throws if no code is found.
 */
export async function readQrImage(src: string): Promise<string> {
  const run = promisify(execFile);
  const dir = await mkdtemp(join(tmpdir(), 'verify-kit-qr-'));
  try {
    const page = join(dir, 'qr.html');
    const png = join(dir, 'qr.png');
    const attribute = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    await writeFile(
      page,
      `<!doctype html><body style="margin:20px"><img src="${attribute}" width="300" height="300">`,
    );
    await run(chromiumExecutable(), [
      '--headless',
      ...CHROMIUM_ARGS,
      '--hide-scrollbars',
      '--window-size=340,340',
      `--screenshot=${png}`,
      `file://${page}`,
    ]);
    const { stdout } = await run('zbarimg', ['--quiet', '--raw', png]);
    return stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
