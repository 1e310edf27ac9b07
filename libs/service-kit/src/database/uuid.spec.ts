import { isUuid, uuidOrUndefined } from './database.js';

describe('isUuid', () => {
  it('accepts a UUID in either case', () => {
    expect(isUuid('0b6f3c1e-8d2a-4c7e-9f10-2a3b4c5d6e7f')).toBe(true);
    expect(isUuid('0B6F3C1E-8D2A-4C7E-9F10-2A3B4C5D6E7F')).toBe(true);
  });

  it.each([
    undefined,
    null,
    '',
    'not-a-uuid',
    '0b6f3c1e-8d2a-4c7e-9f10-2a3b4c5d6e7',
    '0b6f3c1e8d2a4c7e9f102a3b4c5d6e7f',
    ' 0b6f3c1e-8d2a-4c7e-9f10-2a3b4c5d6e7f',
    '0b6f3c1e-8d2a-4c7e-9f10-2a3b4c5d6e7g',
  ])('refuses %p', (value) => {
    expect(isUuid(value)).toBe(false);
  });
});

describe('uuidOrUndefined', () => {
  it('answers the lowercase form, spaces trimmed', () => {
    expect(uuidOrUndefined(' 0B6F3C1E-8D2A-4C7E-9F10-2A3B4C5D6E7F ')).toBe('0b6f3c1e-8d2a-4c7e-9f10-2a3b4c5d6e7f');
  });

  it('answers undefined for anything else', () => {
    expect(uuidOrUndefined('nope')).toBeUndefined();
    expect(uuidOrUndefined(null)).toBeUndefined();
    expect(uuidOrUndefined(undefined)).toBeUndefined();
  });
});
