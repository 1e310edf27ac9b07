import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { cn } from './cn.js';
import { createToastStore, TOAST_DURATION, TOAST_SWIPE_THRESHOLD, type Toast, type ToastOptions, type ToastStore } from './toast-store.js';

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (options: ToastOptions) => void;
}

export interface ToastApi {
  /** Shows a toast (replacing the one on screen: one at a time) and returns a handle to it. */
  toast: (options: ToastOptions) => ToastHandle;
  /** Dismisses a toast, or all of them without an id. */
  dismiss: (id?: string) => void;
  /** Every toast in state, dismissed ones included (open: false) until they are removed. */
  toasts: readonly Toast[];
}

const ToastContext = createContext<ToastStore | null>(null);

export function useToast(): ToastApi {
  const store = useContext(ToastContext);
  if (!store) throw new Error('useToast() must be used inside <ToastProvider>.');
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(
    () => ({
      toast: (options) => {
        const id = store.add(options);
        return { id, dismiss: () => store.dismiss(id), update: (next) => store.update(id, next) };
      },
      dismiss: store.dismiss,
      toasts,
    }),
    [store, toasts],
  );
}

export interface ToastProviderProps {
  children?: ReactNode;
  /** Default auto-dismiss delay (spec: 5000 ms); a toast's own `duration` wins. */
  duration?: number;
  /** Swipe distance that dismisses (spec: 50 px). */
  swipeThreshold?: number;
  /** Name of the notification region; F8 moves focus to it. */
  label?: string;
  /** Accessible name of each toast's close button. */
  closeLabel?: string;
}

const HOTKEY = 'F8';

/**
 * Holds the toasts of the app and renders them in a notification region (a landmark named
 * 'Notifications (F8)', portalled to the body) that F8 focuses. Timers pause while the pointer or
 * focus is in the region, so nobody has to race a toast to read or reach it.
 */
export function ToastProvider({
  children,
  duration = TOAST_DURATION,
  swipeThreshold = TOAST_SWIPE_THRESHOLD,
  label = `Notifications (${HOTKEY})`,
  closeLabel = 'Dismiss notification',
}: ToastProviderProps) {
  const [store] = useState(createToastStore);
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const regionRef = useRef<HTMLElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focusWithin, setFocusWithin] = useState(false);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    setMounted(true);
    store.start();
    return store.dispose;
  }, [store]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.key === HOTKEY || event.code === HOTKEY) && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const region = (
    <section
      ref={regionRef}
      role="region"
      aria-label={label}
      tabIndex={-1}
      className="clip-toast-region"
      data-clip-toast-region=""
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocusWithin(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusWithin(false);
      }}
    >
      <ol className="clip-toast-viewport">
        {toasts
          .filter((toast) => toast.open)
          .map((toast) => (
            <ToastItem
              key={toast.id}
              toast={toast}
              duration={toast.duration ?? duration}
              paused={hovered || focusWithin}
              swipeThreshold={swipeThreshold}
              closeLabel={closeLabel}
              regionRef={regionRef}
              onDismiss={() => store.dismiss(toast.id)}
            />
          ))}
      </ol>
    </section>
  );

  return (
    <ToastContext.Provider value={store}>
      {children}
      {mounted ? createPortal(region, document.body) : null}
    </ToastContext.Provider>
  );
}

interface ToastItemProps {
  toast: Toast;
  duration: number;
  paused: boolean;
  swipeThreshold: number;
  closeLabel: string;
  regionRef: RefObject<HTMLElement | null>;
  onDismiss: () => void;
}

type SwipeState = 'idle' | 'move' | 'cancel';

function ToastItem({ toast, duration, paused, swipeThreshold, closeLabel, regionRef, onDismiss }: ToastItemProps) {
  const itemRef = useRef<HTMLLIElement>(null);
  const remaining = useRef(duration);
  const swipeStart = useRef<{ x: number; y: number; pointerId: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const [swipe, setSwipe] = useState<SwipeState>('idle');
  const dismissRef = useRef(onDismiss);
  useLayoutEffect(() => {
    dismissRef.current = onDismiss;
  });

  // Auto-dismiss: counts down only while not paused, resuming with the time that was left.
  useEffect(() => {
    if (paused || !Number.isFinite(duration)) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => dismissRef.current(), Math.max(0, remaining.current));
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [paused, duration]);

  // A toast that goes away while it holds focus hands focus to the region, not to <body>.
  useLayoutEffect(() => {
    const item = itemRef.current;
    return () => {
      if (item?.contains(document.activeElement)) regionRef.current?.focus();
    };
  }, [regionRef]);

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    // Let clicks on the close button and actions be clicks.
    if ((event.target as Element).closest('button, a, input, select, textarea')) return;
    swipeStart.current = { x: event.clientX, y: event.clientY, pointerId: event.pointerId };
  };

  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    const start = swipeStart.current;
    if (!start || start.pointerId !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    // A mostly vertical gesture is a scroll, not a swipe.
    if (swipe !== 'move' && Math.abs(dy) > Math.abs(dx) && Math.abs(dy) > 10) {
      swipeStart.current = null;
      return;
    }
    if (dx > 0 && swipe !== 'move') {
      setSwipe('move');
      try {
        event.currentTarget.setPointerCapture?.(event.pointerId);
      } catch {
        // Not an active pointer (synthetic events): the swipe still works without capture.
      }
    }
    setOffset(Math.max(0, dx));
  };

  const endSwipe = (event: PointerEvent<HTMLLIElement>, cancelled: boolean) => {
    const start = swipeStart.current;
    if (!start || start.pointerId !== event.pointerId) return;
    swipeStart.current = null;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!cancelled && dx > swipeThreshold && Math.abs(dx) > Math.abs(dy)) {
      onDismiss();
      return;
    }
    setOffset(0);
    setSwipe((state) => (state === 'move' ? 'cancel' : state));
  };

  const destructive = toast.variant === 'destructive';
  return (
    <li
      ref={itemRef}
      // Each toast is its own live region: destructive interrupts (alert, assertive), the others
      // wait for a pause (status, polite). aria-atomic reads title and description together.
      role={destructive ? 'alert' : 'status'}
      aria-live={destructive ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-state="open"
      data-variant={toast.variant}
      data-swipe={swipe}
      className={cn('clip-toast', `clip-toast--${toast.variant}`)}
      style={offset > 0 ? { transform: `translateX(${offset}px)` } : undefined}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDismiss();
        }
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={(event) => endSwipe(event, false)}
      onPointerCancel={(event) => endSwipe(event, true)}
    >
      <ToastIcon variant={toast.variant} />
      <div className="clip-toast__body">
        {toast.title ? <div className="clip-toast__title">{toast.title}</div> : null}
        {toast.description ? <div className="clip-toast__description">{toast.description}</div> : null}
      </div>
      {toast.action ? <div className="clip-toast__action">{toast.action}</div> : null}
      <button type="button" className="clip-toast__close" aria-label={closeLabel} onClick={onDismiss}>
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <path d="M18 6L6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}

function ToastIcon({ variant }: { variant: Toast['variant'] }) {
  switch (variant) {
    case 'default':
      return null;
    case 'success':
      return (
        <svg
          className="clip-toast__icon"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M20 6L9 17l-5-5" />
        </svg>
      );
    case 'destructive':
      return (
        <svg
          className="clip-toast__icon"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v6M12 17h.01" />
        </svg>
      );
  }
}
