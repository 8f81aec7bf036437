import QRCode from 'qrcode';

export const QR_SIZE_PX = 250;
const CACHE_SIZE = 256;
const cache = new Map<string, Buffer>();

/**
 * The largest quiet zone (4 modules is the standard's) for which qrcode's fractional scaling gives an
 * image of exactly `QR_SIZE_PX` (it floors `(modules + 2·margin) · scale`, which can fall a pixel short).
 */
function marginFor(text: string): number {
  const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size;
  for (const margin of [4, 3, 5, 2, 6, 1, 0]) {
    const cells = modules + margin * 2;
    if (cells <= QR_SIZE_PX && Math.floor(cells * (QR_SIZE_PX / cells)) === QR_SIZE_PX) return margin;
  }
  return 4;
}

/** A 250x250 PNG encoding `text` (the deep link), cached for the most recent sessions. */
export async function qrPng(text: string): Promise<Buffer> {
  const hit = cache.get(text);
  if (hit) return hit;
  const png = await QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    width: QR_SIZE_PX,
    margin: marginFor(text),
  });
  cache.set(text, png);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return png;
}
