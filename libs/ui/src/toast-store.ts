import type { ReactNode } from 'react';

// The spec's toast constants (public area §9).
/** How many toasts are kept, and so shown, at once: a new toast replaces the previous one. */
export const TOAST_LIMIT = 1;
/** A dismissed toast stays in state, hidden, this long before it is dropped (spec value). */
export const TOAST_REMOVE_DELAY = 1_000_000;
/** An open toast dismisses itself after this long (paused while hovered or focused). */
export const TOAST_DURATION = 5000;
/** A swipe to the right further than this dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD = 50;

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  /** destructive is announced assertively (role=alert); default and success politely (role=status). */
  variant?: ToastVariant;
  /** Milliseconds before it dismisses itself; Infinity keeps it until dismissed. */
  duration?: number;
  /** A control next to the text, e.g. <Button size="sm">Undo</Button>. */
  action?: ReactNode;
}

export interface Toast extends ToastOptions {
  id: string;
  variant: ToastVariant;
  /** false once dismissed: hidden, and removed after TOAST_REMOVE_DELAY. */
  open: boolean;
}

export interface ToastStore {
  getSnapshot: () => readonly Toast[];
  subscribe: (listener: () => void) => () => void;
  add: (options: ToastOptions) => string;
  update: (id: string, options: ToastOptions) => void;
  /** Closes one toast, or every toast without an id. */
  dismiss: (id?: string) => void;
  /** (Re)schedules the removal of dismissed toasts: the provider mounted. */
  start: () => void;
  /** Clears pending removals: the provider unmounted (or StrictMode simulates it). */
  dispose: () => void;
}

/** The toast state machine of the spec, framework-free (the provider subscribes with useSyncExternalStore). */
export function createToastStore({ limit = TOAST_LIMIT, removeDelay = TOAST_REMOVE_DELAY } = {}): ToastStore {
  let toasts: readonly Toast[] = [];
  let counter = 0;
  const listeners = new Set<() => void>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();

  const set = (next: readonly Toast[]) => {
    toasts = next;
    for (const listener of listeners) listener();
  };

  const cancelRemoval = (id: string) => {
    clearTimeout(removals.get(id));
    removals.delete(id);
  };

  const scheduleRemoval = (id: string) => {
    if (removals.has(id)) return;
    removals.set(
      id,
      setTimeout(() => {
        removals.delete(id);
        set(toasts.filter((toast) => toast.id !== id));
      }, removeDelay),
    );
  };

  return {
    getSnapshot: () => toasts,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add: (options) => {
      const id = String(++counter);
      const next = [{ ...options, id, variant: options.variant ?? 'default', open: true }, ...toasts];
      // Past the limit a toast is dropped at once, dismissed or not.
      for (const dropped of next.slice(limit)) cancelRemoval(dropped.id);
      set(next.slice(0, limit));
      return id;
    },
    update: (id, options) => {
      set(toasts.map((toast) => (toast.id === id ? { ...toast, ...options, variant: options.variant ?? toast.variant } : toast)));
    },
    dismiss: (id) => {
      const targets = toasts.filter((toast) => toast.open && (id === undefined || toast.id === id));
      if (targets.length === 0) return;
      for (const toast of targets) scheduleRemoval(toast.id);
      set(toasts.map((toast) => (targets.includes(toast) ? { ...toast, open: false } : toast)));
    },
    start: () => {
      for (const toast of toasts) if (!toast.open) scheduleRemoval(toast.id);
    },
    dispose: () => {
      for (const id of [...removals.keys()]) cancelRemoval(id);
    },
  };
}
