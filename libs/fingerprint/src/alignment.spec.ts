import { describe, expect, it } from '@jest/globals';
import { alongOneLine, type Match } from './alignment.js';

const mostAlongOneLine = (matches: Match[], maxDrift: number, tolerance: number) => alongOneLine(matches, maxDrift, tolerance).length;

const line = (n: number, shift: number, rate = 1) => Array.from({ length: n }, (_, at) => ({ at, offset: Math.round(at * rate) + shift }));

describe('alongOneLine', () => {
  it('follows a line at any shift (a trim) and a slight tilt (a speed change)', () => {
    expect(mostAlongOneLine(line(10, 0), 0.1, 1)).toBe(10);
    expect(mostAlongOneLine(line(10, 37), 0.1, 1)).toBe(10);
    expect(mostAlongOneLine(line(30, 5, 1.1), 0.15, 1)).toBe(30);
    expect(mostAlongOneLine(line(30, 5, 1 / 1.1), 0.15, 1)).toBe(30);
  });

  it('does not follow a tilt beyond the drift allowed, however small the steps', () => {
    expect(mostAlongOneLine(line(30, 0, 1.5), 0.15, 1)).toBeLessThan(8);
  });

  it('counts a position once, however many of its matches are on the line (a held shot)', () => {
    const held = [0, 1, 2, 3].flatMap((at) => [
      { at, offset: 4 + at },
      { at, offset: 5 + at },
    ]);
    expect(mostAlongOneLine(held, 0.1, 1)).toBe(4);
  });

  it('ignores matches off the line, and finds none without matches', () => {
    const scattered = [...line(6, 10), { at: 2, offset: 90 }, { at: 7, offset: 0 }, { at: 8, offset: 50 }];
    expect(alongOneLine(scattered, 0.1, 1)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(alongOneLine([], 0.1, 1)).toEqual([]);
  });

  it('finds no line through matches that go backwards (the clip reversed, or cut up and reordered)', () => {
    expect(mostAlongOneLine(line(20, 40, -1), 0.2, 1.5)).toBeLessThan(4);
  });
});
