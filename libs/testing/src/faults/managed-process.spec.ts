import { describe, expect, it } from '@jest/globals';
import { ManagedProcess } from './managed-process.js';

describe('ManagedProcess start', () => {
  it('that times out names the last answer of its readiness, and the output of the process', async () => {
    let asked = 0;
    const proc = new ManagedProcess({
      name: 'slow-worker',
      command: process.execPath,
      args: ['-e', "console.log('starting'); setInterval(() => undefined, 1000)"],
      // Not yet until the process said something, so that its output is in the error however slow it starts.
      ready: async () => {
        if (!proc.logs.includes('starting')) return false;
        asked += 1;
        throw new Error(`readiness 503 {"status":"unavailable","checks":{"nats":"down: asked ${asked} times"}}`);
      },
      readyTimeoutMs: 1000,
    });
    const started = proc.start();
    await expect(started).rejects.toThrow(/not ready within 1000 ms \(its last answer: readiness 503 .*"nats":"down: asked \d+ times"/);
    await expect(started).rejects.toThrow(/starting/);
    expect(proc.state).toBe('killed');
    expect(asked).toBeGreaterThan(0);
  });

  it('that never got an answer says so', async () => {
    const proc = new ManagedProcess({
      name: 'silent',
      command: process.execPath,
      args: ['-e', 'setInterval(() => undefined, 1000)'],
      ready: async () => false,
      readyTimeoutMs: 200,
    });
    await expect(proc.start()).rejects.toThrow('not ready within 200 ms (its last answer: no answer yet)');
  });
});
