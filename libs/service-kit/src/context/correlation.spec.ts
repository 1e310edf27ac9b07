import { currentCorrelationId, runWithCorrelation, sanitizeCorrelationId } from './correlation.js';

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
