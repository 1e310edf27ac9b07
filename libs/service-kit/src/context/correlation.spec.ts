import {
  currentCorrelationId,
  currentDeadline,
  deadlineMsOf,
  remainingDeadlineMs,
  runWithCorrelation,
  runWithRequestContext,
  sanitizeCorrelationId,
} from './correlation.js';

describe('correlation ids', () => {
  it('is visible across awaits inside the run, and gone outside', async () => {
    expect(currentCorrelationId()).toBeUndefined();
    await runWithCorrelation('req-1', async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentCorrelationId()).toBe('req-1');
    });
    expect(currentCorrelationId()).toBeUndefined();
  });

  it('makes a fresh id when none (or a forged one) comes in', () => {
    const id = runWithCorrelation('bad id\nwith newline', () => currentCorrelationId());
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts only short id-like values', () => {
    expect(sanitizeCorrelationId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(sanitizeCorrelationId(['first', 'second'])).toBe('first');
    expect(sanitizeCorrelationId('x'.repeat(129))).toBeUndefined();
    expect(sanitizeCorrelationId(42)).toBeUndefined();
  });
});

describe('the caller’s deadline in the request context', () => {
  it('is visible across awaits inside the run, as the time left on a given clock', async () => {
    expect(currentDeadline()).toBeUndefined();
    expect(remainingDeadlineMs(1_000)).toBeUndefined();
    await runWithRequestContext({ correlationId: 'req-2', deadline: 10_000 }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentCorrelationId()).toBe('req-2');
      expect(currentDeadline()).toBe(10_000);
      expect(remainingDeadlineMs(7_500)).toBe(2_500);
      // Past it: negative, so "time left" comparisons refuse.
      expect(remainingDeadlineMs(10_250)).toBe(-250);
    });
    expect(currentDeadline()).toBeUndefined();
  });

  it('has none when the caller set none, or outside a gRPC call', () => {
    expect(runWithRequestContext({ correlationId: 'x', deadline: Infinity }, () => currentDeadline())).toBeUndefined();
    expect(runWithCorrelation('y', () => remainingDeadlineMs())).toBeUndefined();
  });

  it('reads a grpc-js deadline: a Date or epoch ms, none when Infinity', () => {
    expect(deadlineMsOf(new Date(1_700_000_000_000))).toBe(1_700_000_000_000);
    expect(deadlineMsOf(1_700_000_000_500)).toBe(1_700_000_000_500);
    expect(deadlineMsOf(Infinity)).toBeUndefined();
    expect(deadlineMsOf(undefined)).toBeUndefined();
    expect(deadlineMsOf('soon')).toBeUndefined();
  });
});
