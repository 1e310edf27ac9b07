import '@testing-library/jest-dom/jest-globals';
import { configureHttp, createQueryClient } from '@clipit/web-api';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { LiveNotifications } from './LiveNotifications.js';

interface Shown {
  title: string;
  options: NotificationOptions;
  notification: { onclick: (() => void) | null; close: () => void };
}

/** A stand-in for the browser's Notification with a chosen permission, recording what is shown. */
function fakeNotifications(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const shown: Shown[] = [];
  const requestPermission = jest.fn(() => {
    Fake.permission = answer;
    return Promise.resolve(answer);
  });
  class Fake {
    static permission: NotificationPermission = permission;
    static requestPermission = requestPermission;
    onclick: (() => void) | null = null;
    close = jest.fn();
    constructor(title: string, options: NotificationOptions) {
      shown.push({ title, options, notification: this });
    }
  }
  Object.defineProperty(window, 'Notification', { value: Fake, configurable: true, writable: true });
  return { shown, requestPermission };
}

function mount(fetch: jest.Mock<(input: string, init?: RequestInit) => Promise<Response>>) {
  configureHttp({ fetch });
  const navigate = jest.fn<(path: string) => void>();
  const { container } = render(
    <QueryClientProvider client={createQueryClient()}>
      <LiveNotifications navigate={navigate} />
    </QueryClientProvider>,
  );
  return { navigate, container };
}

// jsdom has no fetch Response: the little of it that @clipit/web-api reads.
const answer = (status: number, body: unknown) =>
  jest.fn((_input: string, _init?: RequestInit) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return Promise.resolve({ ok: status >= 200 && status < 300, status, statusText: '', text: () => Promise.resolve(text) } as Response);
  });

/** A stand-in for the browser's EventSource: the test opens it and sends it events. */
class FakeEventSource {
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'Notification');
  Reflect.deleteProperty(globalThis, 'EventSource');
  FakeEventSource.instances = [];
});

describe('live notifications', () => {
  it('asks for permission once when it was never asked, and polls nothing unless it is granted', async () => {
    const { requestPermission } = fakeNotifications('default', 'denied');
    const fetch = answer(200, []);
    mount(fetch);
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('announces each live streamer when granted, and a click opens their profile', async () => {
    const { shown, requestPermission } = fakeNotifications('granted');
    const focus = jest.spyOn(window, 'focus').mockImplementation(() => undefined);
    const fetch = answer(200, [
      { id: 's1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null },
      { id: 's2', displayName: null, twitterUsername: 'grace', profileImageUrl: 'https://cdn.example/g.png' },
    ]);
    const { navigate } = mount(fetch);
    await waitFor(() => expect(shown).toHaveLength(2));
    expect(requestPermission).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledWith('/api/followers/live', expect.objectContaining({ credentials: 'include' }));
    expect(shown.map(({ title, options }) => ({ title, ...options }))).toEqual([
      { title: 'Ada is now live!', body: 'Click to watch their stream', icon: '/icon.png', tag: 'stream-s1' },
      { title: 'grace is now live!', body: 'Click to watch their stream', icon: 'https://cdn.example/g.png', tag: 'stream-s2' },
    ]);
    shown[1]!.notification.onclick?.();
    expect(focus).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/clipper/s2');
    expect(shown[1]!.notification.close).toHaveBeenCalled();
    focus.mockRestore();
  });

  it('stays quiet when the poll fails or answers something that is not a list', async () => {
    const { shown } = fakeNotifications('granted');
    const notFound = answer(404, 'Not Found');
    mount(notFound);
    await waitFor(() => expect(notFound).toHaveBeenCalled());
    cleanup();
    const odd = answer(200, { streamers: [] });
    const { container } = mount(odd);
    await waitFor(() => expect(odd).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown).toEqual([]);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('live notifications over the live stream', () => {
  const ada = { id: 's1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null };
  const grace = { id: 's2', displayName: null, twitterUsername: 'grace', profileImageUrl: null };

  it('listens to the stream while it is open, announcing each go-live once, and rests the poll', async () => {
    Object.defineProperty(globalThis, 'EventSource', { value: FakeEventSource, configurable: true, writable: true });
    const { shown } = fakeNotifications('granted');
    const fetch = answer(200, []);
    mount(fetch);
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/live/stream');
    act(() => source.open());
    act(() => source.emit('snapshot', [ada]));
    act(() => source.emit('live', ada)); // already announced by the snapshot
    act(() => source.emit('live', grace));
    act(() => source.emit('offline', { id: 's1' }));
    act(() => source.emit('live', ada)); // back again: a new live period
    expect(shown.map((s) => s.options.tag)).toEqual(['stream-s1', 'stream-s2', 'stream-s1']);
    const calls = fetch.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fetch.mock.calls.length).toBe(calls); // no polling while the stream is open
  });

  it('falls back to the poll when the stream fails, without announcing again who the stream announced', async () => {
    Object.defineProperty(globalThis, 'EventSource', { value: FakeEventSource, configurable: true, writable: true });
    const { shown } = fakeNotifications('granted');
    const fetch = answer(200, [ada, grace]);
    const client = createQueryClient();
    configureHttp({ fetch });
    render(
      <QueryClientProvider client={client}>
        <LiveNotifications navigate={jest.fn()} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    await waitFor(() => expect(shown).toHaveLength(2)); // the first poll, before the stream opened
    const source = FakeEventSource.instances[0]!;
    act(() => source.open());
    act(() => source.emit('snapshot', [ada, grace]));
    expect(shown).toHaveLength(2);
    const before = fetch.mock.calls.length;
    act(() => source.fail());
    await act(() => client.refetchQueries({ queryKey: ['/api/followers/live'] }));
    expect(fetch.mock.calls.length).toBeGreaterThan(before);
    expect(shown).toHaveLength(2);
  });
});
