/**
 * A prepared statement's name for `text`, the same in every process and every copy of the kit
 * (FNV-1a of the text): a connection prepares each statement once, whoever asks first.
 */
export function statementName(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `verify_kit_${(hash >>> 0).toString(36)}_${text.length}`;
}
