import { afterEach, describe, expect, it } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { useNearViewport } from './use-near-viewport.js';

/** A stand-in IntersectionObserver whose callbacks the test fires. */
class FakeObserver {
  static last: FakeObserver | undefined;
  readonly observed: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit | undefined,
  ) {
    FakeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  fire(isIntersecting: boolean) {
    act(() => this.callback([{ isIntersecting } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
  }
}

function Probe({ margin }: { margin?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box, margin);
  return <div ref={box}>{near ? 'near' : 'far'}</div>;
}

describe('useNearViewport', () => {
  const original = globalThis.IntersectionObserver;
  afterEach(() => {
    globalThis.IntersectionObserver = original;
    FakeObserver.last = undefined;
  });

  it('turns true once the element comes within the margin, then stops watching', () => {
    globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
    render(<Probe margin="300px" />);
    expect(screen.getByText('far')).toBeTruthy();
    const observer = FakeObserver.last!;
    expect(observer.options).toEqual({ rootMargin: '300px' });
    expect(observer.observed).toHaveLength(1);
    observer.fire(false);
    expect(screen.getByText('far')).toBeTruthy();
    observer.fire(true);
    expect(screen.getByText('near')).toBeTruthy();
    expect(observer.disconnected).toBe(true);
  });

  it('is true at once where IntersectionObserver is missing', () => {
    // @ts-expect-error: a browser without it
    delete globalThis.IntersectionObserver;
    render(<Probe />);
    expect(screen.getByText('near')).toBeTruthy();
  });
});
