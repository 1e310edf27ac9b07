import { describe, expect, it } from '@jest/globals';
import { hasForbiddenControlCharacter } from './control-characters.js';

describe('control characters at the edge', () => {
  it('refuses NUL and the other C0 controls and DEL, wherever they sit', () => {
    for (const c of ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u001B', '\u001F', '\u007F']) {
      expect(hasForbiddenControlCharacter(`a${c}b`)).toBe(true);
      expect(hasForbiddenControlCharacter({ displayName: `a${c}` })).toBe(true);
      expect(hasForbiddenControlCharacter({ list: [{ deep: [`${c}`] }] })).toBe(true);
      expect(hasForbiddenControlCharacter({ [`key${c}`]: 'x' })).toBe(true);
    }
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { q: 'a\u0000' });
    expect(hasForbiddenControlCharacter(query)).toBe(true);
  });

  it('allows tabs, line breaks, and every printable script', () => {
    expect(hasForbiddenControlCharacter({ additionalInfo: 'line one\r\nline two\tend' })).toBe(false);
    expect(hasForbiddenControlCharacter({ name: 'مرحبا 👋 ñ', n: 1, b: true, z: null })).toBe(false);
    expect(hasForbiddenControlCharacter(undefined)).toBe(false);
  });

  it('looks only at parsed text, not at streams or buffers', () => {
    expect(hasForbiddenControlCharacter(Buffer.from([0, 1, 2]))).toBe(false);
  });

  it('walks very deep values without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(hasForbiddenControlCharacter(deep)).toBe(true);
  });
});
