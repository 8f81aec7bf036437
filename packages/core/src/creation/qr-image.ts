import type { QRCode, QRCodeRenderersOptions, QRCodeToStringOptions } from 'qrcode';
// qrcode's own parts, not its entry (which pulls fs, stream and pngjs in for PNG and files): the
// encoder and the SVG renderer its browser build uses, Web APIs only. They ship no types of their
// own; @types/qrcode's are given to them below.
// @ts-expect-error: qrcode/lib/core/qrcode.js has no declaration file
import qrcodeCore from 'qrcode/lib/core/qrcode.js';
// @ts-expect-error: qrcode/lib/renderer/svg-tag.js has no declaration file
import svgTag from 'qrcode/lib/renderer/svg-tag.js';
import { BoundedMap } from '../shared/lru.js';

const createQr: (text: string, options: QRCodeToStringOptions) => QRCode = qrcodeCore.create;
const renderSvg: (qr: QRCode, options: QRCodeRenderersOptions) => string = svgTag.render;

/** qrcode's `toString(link, OPTIONS)`, which is `render(create(link, OPTIONS), OPTIONS)`. */
const OPTIONS: QRCodeToStringOptions = { type: 'svg', errorCorrectionLevel: 'M', margin: 2 };

/** What a data URL must escape of qrcode's SVG; `"` becomes `'`, which SVG reads the same. */
const ESCAPES: Record<string, string> = { '"': "'", '#': '%23', '%': '%25', '<': '%3C', '>': '%3E' };

/**
 * The QR code of a session's deep link, rendered here (no upstream call, no key), as SVG for
 * `GET /qr.svg` and as a `data:` URL for the session answer. A session's link never changes: each
 * is rendered once and kept (the last 1,000).
 */
export class QrImages {
  readonly #svgs = new BoundedMap<string, string>(1000);

  async svg(deepLink: string): Promise<string> {
    let svg = this.#svgs.get(deepLink);
    if (svg === undefined) {
      svg = renderSvg(createQr(deepLink, OPTIONS), OPTIONS);
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
