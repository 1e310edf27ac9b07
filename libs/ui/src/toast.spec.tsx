import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode } from 'react';
import { useToast, ToastProvider, type ToastApi } from './toast.js';
import { TOAST_DURATION, TOAST_LIMIT, TOAST_REMOVE_DELAY, TOAST_SWIPE_THRESHOLD } from './toast-store.js';

let api: ToastApi;
function Capture() {
  api = useToast();
  return null;
}

const setup = () => {
  render(
    <ToastProvider>
      <button type="button">Elsewhere</button>
      <Capture />
    </ToastProvider>,
  );
  return userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
};

const show = (options: Parameters<ToastApi['toast']>[0]) => {
  let handle!: ReturnType<ToastApi['toast']>;
  act(() => {
    handle = api.toast(options);
  });
  return handle;
};

const advance = (ms: number) => act(() => jest.advanceTimersByTime(ms));
const region = () => screen.getByRole('region', { name: 'Notifications (F8)' });
const items = () => region().querySelectorAll('li');

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('toast constants (spec §9)', () => {
  it('one at a time, 5000 ms on screen, 1,000,000 ms kept after dismissal, 50 px swipe', () => {
    expect([TOAST_LIMIT, TOAST_DURATION, TOAST_REMOVE_DELAY, TOAST_SWIPE_THRESHOLD]).toEqual([1, 5000, 1_000_000, 50]);
  });
});

describe('ToastProvider / useToast', () => {
  it('renders an empty notification region, portalled to the body', () => {
    setup();
    expect(region().tagName).toBe('SECTION');
    expect(region().parentElement).toBe(document.body);
    expect(region().querySelector('ol')).toBeEmptyDOMElement();
  });

  it('shows title and description; default and success are polite statuses, destructive an assertive alert', () => {
    setup();
    show({ title: 'Clip Submitted!', description: 'Your clip has been submitted and will appear in the feed soon!' });
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Clip Submitted!');
    expect(status).toHaveTextContent('will appear in the feed soon!');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveAttribute('aria-atomic', 'true');
    expect(status).toHaveAttribute('data-variant', 'default');

    show({ title: 'Following!', variant: 'success' });
    expect(screen.getByRole('status')).toHaveAttribute('data-variant', 'success');

    show({ title: 'Failed to follow', description: '500: boom', variant: 'destructive' });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to follow500: boom');
    expect(alert).toHaveAttribute('aria-live', 'assertive');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('keeps one toast: a new one replaces the one on screen (TOAST_LIMIT 1)', () => {
    setup();
    show({ title: 'First' });
    show({ title: 'Second' });
    expect(items()).toHaveLength(1);
    expect(items()[0]).toHaveTextContent('Second');
    expect(api.toasts.map((t) => t.title)).toEqual(['Second']);
  });

  it('dismisses itself after 5000 ms, stays in state hidden, and is removed 1,000,000 ms later', () => {
    setup();
    show({ title: 'Points Refreshed!' });
    advance(4999);
    expect(screen.getByRole('status')).toHaveTextContent('Points Refreshed!');
    advance(1);
    expect(screen.queryByRole('status')).toBeNull();
    expect(api.toasts).toHaveLength(1);
    expect(api.toasts[0]).toMatchObject({ title: 'Points Refreshed!', open: false });

    advance(TOAST_REMOVE_DELAY - 1);
    expect(api.toasts).toHaveLength(1);
    advance(1);
    expect(api.toasts).toHaveLength(0);
  });

  it('a toast may set its own duration', () => {
    setup();
    show({ title: 'Placeholder Streamer Created', duration: 10_000 });
    advance(9999);
    expect(screen.getByRole('status')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('pauses the countdown while the pointer is over the region, resuming with the time left', () => {
    setup();
    show({ title: 'Copied to clipboard' });
    advance(3000);
    fireEvent.pointerEnter(region());
    advance(60_000);
    expect(screen.getByRole('status')).toBeInTheDocument();
    fireEvent.pointerLeave(region());
    advance(1999);
    expect(screen.getByRole('status')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a swipe to the right past 50 px dismisses; 50 px or less springs back', () => {
    setup();
    show({ title: 'Swipe me' });
    const toast = screen.getByRole('status');

    fireEvent.pointerDown(toast, { pointerId: 1, clientX: 100, clientY: 10 });
    fireEvent.pointerMove(toast, { pointerId: 1, clientX: 150, clientY: 12 });
    expect(toast).toHaveAttribute('data-swipe', 'move');
    expect(toast.style.transform).toBe('translateX(50px)');
    fireEvent.pointerUp(toast, { pointerId: 1, clientX: 150, clientY: 12 });
    expect(toast).toBeInTheDocument();
    expect(toast).toHaveAttribute('data-swipe', 'cancel');
    expect(toast.style.transform).toBe('');

    fireEvent.pointerDown(toast, { pointerId: 2, clientX: 100, clientY: 10 });
    fireEvent.pointerMove(toast, { pointerId: 2, clientX: 140, clientY: 10 });
    fireEvent.pointerMove(toast, { pointerId: 2, clientX: 151, clientY: 10 });
    fireEvent.pointerUp(toast, { pointerId: 2, clientX: 151, clientY: 10 });
    expect(screen.queryByRole('status')).toBeNull();
    expect(api.toasts[0]).toMatchObject({ title: 'Swipe me', open: false });
  });

  it('a swipe to the left or a vertical drag does not dismiss', () => {
    setup();
    show({ title: 'Stay' });
    const toast = screen.getByRole('status');
    fireEvent.pointerDown(toast, { pointerId: 1, clientX: 200, clientY: 10 });
    fireEvent.pointerMove(toast, { pointerId: 1, clientX: 100, clientY: 10 });
    fireEvent.pointerUp(toast, { pointerId: 1, clientX: 100, clientY: 10 });
    fireEvent.pointerDown(toast, { pointerId: 2, clientX: 100, clientY: 10 });
    fireEvent.pointerMove(toast, { pointerId: 2, clientX: 110, clientY: 120 });
    fireEvent.pointerUp(toast, { pointerId: 2, clientX: 180, clientY: 200 });
    expect(screen.getByRole('status')).toHaveTextContent('Stay');
  });

  it('F8 moves focus to the notification region, which pauses the countdown', async () => {
    const user = setup();
    show({ title: 'Profile updated!' });
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    await user.keyboard('{F8}');
    expect(region()).toHaveFocus();
    advance(TOAST_DURATION * 3);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dismiss notification' })).toHaveFocus();
  });

  it('the labelled close button dismisses, and focus stays in the region', async () => {
    const user = setup();
    show({ title: 'Banner updated!' });
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(region()).toHaveFocus();
  });

  it('Escape dismisses the toast that has focus', async () => {
    const user = setup();
    show({ title: 'Stream time updated!' });
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).focus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('dismiss(id), dismiss() and the returned handle', () => {
    setup();
    const handle = show({ title: 'Saving…' });
    act(() => handle.update({ title: 'Wallet Added!', variant: 'success' }));
    expect(screen.getByRole('status')).toHaveTextContent('Wallet Added!');
    expect(screen.getByRole('status')).toHaveAttribute('data-variant', 'success');
    act(() => api.dismiss(handle.id));
    expect(screen.queryByRole('status')).toBeNull();

    show({ title: 'Another' });
    act(() => api.dismiss());
    expect(screen.queryByRole('status')).toBeNull();
    expect(api.toasts.every((t) => !t.open)).toBe(true);
  });

  it('useToast outside the provider says what is missing', () => {
    expect(() => renderHook(() => useToast())).toThrow('useToast() must be used inside <ToastProvider>.');
  });

  it('auto-dismisses and removes under StrictMode too', () => {
    render(
      <StrictMode>
        <ToastProvider>
          <Capture />
        </ToastProvider>
      </StrictMode>,
    );
    show({ title: 'Submission Approved' });
    expect(items()).toHaveLength(1);
    advance(TOAST_DURATION);
    expect(items()).toHaveLength(0);
    advance(TOAST_REMOVE_DELAY);
    expect(api.toasts).toHaveLength(0);
  });
});
