/** Polls until the check answers a value other than undefined, or fails after the timeout. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
