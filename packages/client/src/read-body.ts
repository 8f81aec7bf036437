/** The most a response body may hold; the rest is not read (the connection is dropped). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReadBody {
  text: string;
  /** true when the body was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads a response body up to `maxBytes`. Always consumes it or leaves the loop early, which ends
 * the iterator (destroys undici's stream, cancels a fetch body), so the socket goes back to the
 * pool (or is closed) instead of leaking. Web APIs only: both clients read their bodies with it.
 */
export async function readBody(
  body: AsyncIterable<Uint8Array | string>,
  maxBytes = MAX_BODY_BYTES,
): Promise<ReadBody> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const encoder = new TextEncoder();
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    if (size + bytes.byteLength > maxBytes) {
      chunks.push(bytes.subarray(0, maxBytes - size));
      return { text: decode(chunks), truncated: true };
    }
    chunks.push(bytes);
    size += bytes.byteLength;
  }
  return { text: decode(chunks), truncated: false };
}

function decode(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
