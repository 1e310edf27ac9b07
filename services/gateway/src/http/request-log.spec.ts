import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { createLogger } from '@clipit/service-kit';
import { RequestLog } from './request-log.js';

/** A pino logger made as the kit makes it, writing its lines into `lines`. */
function capturing(level: 'info' | 'warn' = 'info'): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLogger('gateway', level, sink), lines };
}

const withoutTime = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(typeof time).toBe('string');
  return rest;
};

describe('RequestLog', () => {
  it('writes the line pino writes for the same fields, keys in the same order', () => {
    const { log, lines } = capturing();
    const requestLog = new RequestLog(log);
    requestLog.record('corr-1', 'GET', '/api/feed/clips', undefined, 200, 0.123456);
    expect(lines).toEqual([]); // held until the end of the event loop's turn
    requestLog.flush();
    log.info({ correlationId: 'corr-1', method: 'GET', route: '/api/feed/clips', status: 200, durationMs: 0.12 }, 'request');
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[0]!)).toEqual(withoutTime(lines[1]!));
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(Object.keys(JSON.parse(lines[1]!)));
  });

  it('logs an unmatched request with the start of its URL, escaped', async () => {
    const { log, lines } = capturing();
    const url = `/nowhere?q="quoted"\\${'x'.repeat(300)}`;
    new RequestLog(log).record('corr-2', 'GET', undefined, url, 404, 1);
    await new Promise((resolve) => setImmediate(resolve)); // written at the end of the turn
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', service: 'gateway', route: 'unmatched', status: 404, msg: 'request' });
    expect(entry['url']).toBe(url.slice(0, 200));
  });

  it('writes the lines of one turn together, in order', async () => {
    const { log, lines } = capturing();
    const requestLog = new RequestLog(log);
    for (let i = 0; i < 3; i += 1) requestLog.record(`corr-${i}`, 'GET', '/api/leaderboard/stats', undefined, 200, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => (JSON.parse(line) as { correlationId: string }).correlationId)).toEqual(['corr-0', 'corr-1', 'corr-2']);
  });

  it('writes nothing above info', () => {
    const { log, lines } = capturing('warn');
    const requestLog = new RequestLog(log);
    requestLog.record('corr-3', 'GET', '/api/leaderboard/posts', undefined, 200, 1);
    requestLog.flush();
    expect(lines).toEqual([]);
  });
});
