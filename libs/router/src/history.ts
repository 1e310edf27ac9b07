// Where the page is and how it moves: the browser's history (pushState, popstate) or an in-memory one
// for tests. A location is the URL's path, query and fragment, plus the state and a key unique to each
// entry (a navigation to the same URL is a new entry with a new key).

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

/** Where to go: an absolute or relative URL path, or its parts. */
export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  /** Replace the current entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
}

export type Action = 'POP' | 'PUSH' | 'REPLACE';

export interface History {
  readonly location: Location;
  push(to: To, state?: unknown): void;
  replace(to: To, state?: unknown): void;
  go(delta: number): void;
  /** Calls `listener` after every change of location; returns the unsubscribe function. */
  listen(listener: (location: Location, action: Action) => void): () => void;
  /** The URL of `to` as an href (for links). */
  createHref(to: To): string;
}

let keys = 0;
const nextKey = () => `${Date.now().toString(36)}-${(keys += 1).toString(36)}`;

/** `to` resolved against the current path: the parts of the resulting location. */
export function resolveTo(to: To, from: Pick<Location, 'pathname'>): Pick<Location, 'pathname' | 'search' | 'hash'> {
  if (typeof to === 'string') {
    const url = new URL(to, `http://x${from.pathname}`);
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  }
  const search = to.search ?? '';
  const hash = to.hash ?? '';
  return {
    pathname: to.pathname === undefined ? from.pathname : resolveTo(to.pathname, from).pathname,
    search: search && !search.startsWith('?') ? `?${search}` : search,
    hash: hash && !hash.startsWith('#') ? `#${hash}` : hash,
  };
}

const hrefOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => `${l.pathname}${l.search}${l.hash}`;

interface Entry {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

function listeners() {
  const set = new Set<(location: Location, action: Action) => void>();
  return {
    add(listener: (location: Location, action: Action) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(location: Location, action: Action) {
      for (const listener of [...set]) listener(location, action);
    },
  };
}

/** The browser's history. Each entry's key and state are kept in `history.state`. */
export function createBrowserHistory(win: Window = window): History {
  const subscribers = listeners();
  const read = (): Location => {
    const saved = (win.history.state ?? {}) as { key?: string; usr?: unknown };
    return {
      pathname: win.location.pathname,
      search: win.location.search,
      hash: win.location.hash,
      state: saved.usr ?? null,
      key: saved.key ?? 'default',
    };
  };
  let location = read();
  win.addEventListener('popstate', () => {
    location = read();
    subscribers.emit(location, 'POP');
  });
  const move = (action: 'PUSH' | 'REPLACE', to: To, state: unknown) => {
    const next = { ...resolveTo(to, location), state: state ?? null, key: nextKey() };
    const record = { key: next.key, usr: next.state };
    if (action === 'PUSH') win.history.pushState(record, '', hrefOf(next));
    else win.history.replaceState(record, '', hrefOf(next));
    location = next;
    subscribers.emit(location, action);
  };
  return {
    get location() {
      return location;
    },
    push: (to, state) => move('PUSH', to, state),
    replace: (to, state) => move('REPLACE', to, state),
    go: (delta) => win.history.go(delta),
    listen: (listener) => subscribers.add(listener),
    createHref: (to) => hrefOf(resolveTo(to, location)),
  };
}

/** A history kept in memory (component tests; no URL bar). */
export function createMemoryHistory(initialEntries: readonly To[] = ['/'], initialIndex = initialEntries.length - 1): History {
  const subscribers = listeners();
  const root = { pathname: '/' };
  const entries: Entry[] = initialEntries.map((to) => ({ ...resolveTo(to, root), state: null, key: nextKey() }));
  let index = Math.max(0, Math.min(initialIndex, entries.length - 1));
  const current = (): Location => entries[index] ?? { pathname: '/', search: '', hash: '', state: null, key: 'default' };
  const move = (action: 'PUSH' | 'REPLACE', to: To, state: unknown) => {
    const next = { ...resolveTo(to, current()), state: state ?? null, key: nextKey() };
    if (action === 'PUSH') {
      index += 1;
      entries.splice(index, entries.length - index, next);
    } else entries[index] = next;
    subscribers.emit(current(), action);
  };
  return {
    get location() {
      return current();
    },
    push: (to, state) => move('PUSH', to, state),
    replace: (to, state) => move('REPLACE', to, state),
    go(delta) {
      const target = Math.max(0, Math.min(index + delta, entries.length - 1));
      if (target === index) return;
      index = target;
      subscribers.emit(current(), 'POP');
    },
    listen: (listener) => subscribers.add(listener),
    createHref: (to) => hrefOf(resolveTo(to, current())),
  };
}
