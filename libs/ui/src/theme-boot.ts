// The theme constants and the boot script, with no imports and no DOM access at load: a build
// config running in Node can import this file (`@clipit/ui/theme-boot`) to write the script beside
// index.html, and the browser bundle gets the same values from the package entry.

export const themes = ['dark', 'light'] as const;
export type Theme = (typeof themes)[number];

/** localStorage key of the chosen theme (spec: clip-theme). */
export const themeStorageKey = 'clip-theme';
/** The theme when none was chosen, or the stored value is unreadable (spec: dark). */
export const defaultTheme: Theme = 'dark';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (themes as readonly string[]).includes(value);
}

/**
 * Load this in <head>, before any stylesheet and without `defer`, so the root element carries the right
 * theme class before the first paint (no flash of the wrong theme). The shell writes it as a file of its
 * own (the site's Content-Security-Policy allows no inline script). ES5 only, and it never throws:
 * storage may be blocked.
 */
export const themeBootScript =
  `(function(){var k=${JSON.stringify(themeStorageKey)},a=${JSON.stringify(themes)},t;` +
  `try{t=window.localStorage.getItem(k)}catch(e){}` +
  `if(a.indexOf(t)<0)t=${JSON.stringify(defaultTheme)};` +
  `var r=document.documentElement;for(var i=0;i<a.length;i++)r.classList.remove(a[i]);` +
  `r.classList.add(t);r.style.colorScheme=t})();`;
