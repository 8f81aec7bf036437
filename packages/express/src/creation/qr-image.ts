import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';

/** What a data URL must escape of qrcode's SVG; `"` becomes `'`, which SVG reads the same. */
const ESCAPES: Record<string, string> = { '"': "'", '#': '%23', '%': '%25', '<': '%3C', '>': '%3E' };

/**
 * The QR code of a session's deep link, rendered here (no upstream call, no key), as SVG for
 * `GET /qr.svg` and as a `data:` URL for the session answer. A session's link never changes: each
 * is rendered once and kept (the last 1,000).
 */
export class QrImages {
  readonly #svgs = new LRUCache<string, string>({ max: 1000 });

  async svg(deepLink: string): Promise<string> {
    let svg = this.#svgs.get(deepLink);
    if (svg === undefined) {
      svg = await QRCode.toString(deepLink, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      this.#svgs.set(deepLink, svg);
    }
    return svg;
  }

  /**
   * `data:image/svg+xml,…`, percent-escaped only where a URL needs it: 2.5 KB where base64 would
   * take 3.3 KB, and it compresses as the SVG does.
   */
  async dataUrl(deepLink: string): Promise<string> {
    const svg = (await this.svg(deepLink)).trim();
    return `data:image/svg+xml,${svg.replace(/["#%<>]/g, (c) => ESCAPES[c]!)}`;
  }
}
