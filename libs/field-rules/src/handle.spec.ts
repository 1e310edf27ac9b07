import { describe, expect, it } from '@jest/globals';
import { HANDLE_MESSAGES, HANDLE_PATTERN, isHandle, normalizeHandle } from './handle.js';

describe('handle', () => {
  it('normalizes by trimming and dropping one leading @', () => {
    expect(normalizeHandle('  @Alice_01 ')).toBe('Alice_01');
    expect(normalizeHandle('@ alice')).toBe('alice');
    expect(normalizeHandle('@@alice')).toBe('@alice');
    expect(normalizeHandle('@')).toBe('');
    expect(normalizeHandle(undefined)).toBe('');
    expect(normalizeHandle(null)).toBe('');
  });

  it.each(['a', 'A_1', '_', '123456789012345', 'Clip_King'])('accepts %s', (handle) => {
    expect(isHandle(handle)).toBe(true);
  });

  it.each(['', '1234567890123456', 'two words', 'dash-ed', 'dot.ted', '@alice', 'émile', 'alice\n'])('refuses %j', (handle) => {
    expect(isHandle(handle)).toBe(false);
  });

  it('has the spec words', () => {
    expect(HANDLE_MESSAGES).toEqual({
      required: 'Twitter handle is required',
      invalid: 'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)',
    });
  });

  it('is one anchored, case-sensitive character class (identity repeats it in SQL)', () => {
    expect(HANDLE_PATTERN.source).toBe('^[A-Za-z0-9_]{1,15}$');
    expect(HANDLE_PATTERN.flags).toBe('');
  });
});
