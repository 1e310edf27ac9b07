import { defaultTheme, isTheme, themeStorageKey, themes, type Theme } from './theme-boot.js';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Reading window.localStorage itself throws when the browser blocks site storage.
    return null;
  }
}

/** The stored theme, or the default (dark) when nothing valid is stored or storage is blocked. */
export function readStoredTheme(): Theme {
  try {
    const value = storage()?.getItem(themeStorageKey);
    return isTheme(value) ? value : defaultTheme;
  } catch {
    return defaultTheme;
  }
}

/** Saves the choice; a full or blocked storage only means it is not remembered. */
export function storeTheme(theme: Theme): void {
  try {
    storage()?.setItem(themeStorageKey, theme);
  } catch {
    // Quota exceeded or storage disabled: the theme still applies for this page.
  }
}

/** Puts the theme class (and the matching color-scheme) on the root element, removing the other. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.remove(...themes);
  root.classList.add(theme);
  root.style.colorScheme = theme;
}
