/** A string of the text tables as runs of plain text and of `code` (between backticks). */
export function inlineParts(text: string): { text: string; code: boolean }[] {
  return text
    .split('`')
    .map((part, index) => ({ text: part, code: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}
