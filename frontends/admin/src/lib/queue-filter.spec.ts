import { describe, expect, it } from '@jest/globals';
import { DEFAULT_QUEUE_FILTER, isFiltered, queueQuery, toggleFlag } from './queue-filter.js';
import { queueCommand, type QueueKeyEvent } from './queue-shortcuts.js';

describe('the queue filter', () => {
  it('asks for nothing by default: every status, pending first', () => {
    expect(queueQuery(DEFAULT_QUEUE_FILTER)).toBe('');
    expect(isFiltered(DEFAULT_QUEUE_FILTER)).toBe(false);
  });

  it('sends a status, a platform and the flags, the flags in one order whatever order they were ticked in', () => {
    const filter = toggleFlag(toggleFlag({ status: 'pending', platform: 'tiktok', flags: [] }, 'risky', true), 'matched', true);
    expect(queueQuery(filter)).toBe('&status=pending&platform=tiktok&flags=matched%2Crisky');
    expect(queueQuery(toggleFlag(filter, 'risky', false))).toBe('&status=pending&platform=tiktok&flags=matched');
    expect(isFiltered({ ...DEFAULT_QUEUE_FILTER, flags: ['failed-checks'] })).toBe(true);
  });
});

describe('the queue shortcuts', () => {
  const key = (k: string, patch: Partial<QueueKeyEvent> = {}): QueueKeyEvent => ({
    key: k,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    target: { tagName: 'ARTICLE' } as unknown as EventTarget,
    ...patch,
  });

  it('maps the letters and the arrows to commands', () => {
    expect(['j', 'k', 'a', 'f', 'r', 'v', 'o', 'ArrowDown', 'ArrowUp'].map((k) => queueCommand(key(k)))).toEqual([
      'next',
      'previous',
      'approve',
      'feed',
      'reject',
      'video',
      'details',
      'next',
      'previous',
    ]);
    expect(queueCommand(key('x'))).toBeNull();
  });

  it('leaves the browser its own shortcuts and typed text alone', () => {
    expect(queueCommand(key('r', { ctrlKey: true }))).toBeNull();
    expect(queueCommand(key('a', { metaKey: true }))).toBeNull();
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT'])
      expect(queueCommand(key('a', { target: { tagName } as unknown as EventTarget }))).toBeNull();
    expect(queueCommand(key('a', { target: { tagName: 'DIV', isContentEditable: true } as unknown as EventTarget }))).toBeNull();
  });
});
