/** The most a response body may hold; the rest is not read (the connection is dropped). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReadBody {
  text: string;
  /** true when the body was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads a response body up to `maxBytes`. Always consumes or destroys it, so the socket goes back
 * to the pool (or is closed) instead of leaking.
 */
export async function readBody(
  body: AsyncIterable<Uint8Array | string>,
  maxBytes = MAX_BODY_BYTES,
): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (size + bytes.length > maxBytes) {
      chunks.push(bytes.subarray(0, maxBytes - size));
      // Leaving the loop destroys the stream.
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
