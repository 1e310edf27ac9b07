// Loaded after the jsdom environment for every ui spec.
import '@testing-library/jest-dom/jest-globals';
import { afterEach } from '@jest/globals';
import { configure } from '@testing-library/react';

// findBy… and waitFor poll until their element shows, answering as soon as it does; the default of 1 s is
// too short on a CI machine whose 2 cores also run the other Jest worker (a screen's first render with its
// answered query took over 1 s there once). A test that passes is no slower for it.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no PointerEvent: without it pointer events arrive as plain Events with no coordinates,
// and swipe gestures cannot be tested. A MouseEvent carries the coordinates; add the pointer fields.
if (typeof window.PointerEvent === 'undefined') {
  class PointerEvent extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    readonly isPrimary: boolean;
    readonly width: number;
    readonly height: number;
    readonly pressure: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
      this.isPrimary = init.isPrimary ?? true;
      this.width = init.width ?? 1;
      this.height = init.height ?? 1;
      this.pressure = init.pressure ?? 0;
    }
  }
  Object.defineProperty(window, 'PointerEvent', { value: PointerEvent, configurable: true, writable: true });
}

// Specs share one document per file: no theme class or stored theme leaks from one test to the next.
afterEach(() => {
  window.localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});
