/** Resolves once `condition` holds (checked every 10 ms, up to 10 s); rejects naming `what` otherwise. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}
