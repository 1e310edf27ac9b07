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

/**
 * The error a call failed with, when it is a `type` (e.g. GrpcCallError); throws, failing the test, when
 * the call succeeded or failed with something else.
 */
export async function rejectedWith<E extends Error>(call: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await call };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (!outcome.ok && outcome.error instanceof type) return outcome.error;
  const got = outcome.ok ? `it succeeded with ${JSON.stringify(outcome.value)}` : `it failed with ${String(outcome.error)}`;
  throw new Error(`expected the call to fail with a ${type.name}, but ${got}`);
}
