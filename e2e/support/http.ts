// What the e2e specs send and expect over HTTP: a JSON request (a string body goes as it is, to send
// broken JSON on purpose) and a refusal as the gateway answers every one, text/plain with the words.
import { expect } from '@jest/globals';

/** A request with a JSON body (none when `body` is undefined) and extra headers (a cookie, a bearer). */
export const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
  ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
});

/** The answer is `status` with exactly `text` as text/plain. */
export async function expectText(res: Response, status: number, text: string): Promise<void> {
  expect({ status: res.status, type: res.headers.get('content-type'), body: await res.text() }).toEqual({
    status,
    type: 'text/plain; charset=utf-8',
    body: text,
  });
}
