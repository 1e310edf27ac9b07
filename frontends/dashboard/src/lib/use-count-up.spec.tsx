import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { COUNT_UP_DURATION_MS, COUNT_UP_STEPS, useCountUp } from './use-count-up.js';

function reducedMotion(reduce: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: reduce && query.includes('reduce'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }),
  });
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
  Reflect.deleteProperty(window, 'matchMedia');
});

describe('useCountUp (the points counter: 1.5 s, 60 steps)', () => {
  it('counts from 0 to the target in 60 steps over 1.5 s, ending exactly on it', () => {
    reducedMotion(false);
    const { result } = renderHook(() => useCountUp(600));
    expect(result.current).toBe(0);
    const seen = new Set<number>();
    for (let step = 1; step <= COUNT_UP_STEPS; step++) {
      act(() => jest.advanceTimersByTime(COUNT_UP_DURATION_MS / COUNT_UP_STEPS));
      seen.add(result.current);
    }
    expect(result.current).toBe(600);
    expect(seen.size).toBe(COUNT_UP_STEPS);
    expect(Math.max(...seen)).toBe(600);
  });

  it('is halfway at 0.75 s and counts on from where it stands when the target changes', () => {
    reducedMotion(false);
    const { result, rerender } = renderHook(({ target }) => useCountUp(target), { initialProps: { target: 100 } });
    act(() => jest.advanceTimersByTime(COUNT_UP_DURATION_MS / 2));
    expect(result.current).toBe(50);
    act(() => jest.advanceTimersByTime(COUNT_UP_DURATION_MS));
    expect(result.current).toBe(100);
    rerender({ target: 40 });
    act(() => jest.advanceTimersByTime(COUNT_UP_DURATION_MS / 2));
    expect(result.current).toBe(70);
    act(() => jest.advanceTimersByTime(COUNT_UP_DURATION_MS));
    expect(result.current).toBe(40);
  });

  it('jumps to the target under prefers-reduced-motion', () => {
    reducedMotion(true);
    const { result, rerender } = renderHook(({ target }) => useCountUp(target), { initialProps: { target: 420 } });
    expect(result.current).toBe(420);
    rerender({ target: 512 });
    expect(result.current).toBe(512);
  });
});
