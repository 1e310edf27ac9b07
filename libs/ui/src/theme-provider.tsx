import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { applyTheme, readStoredTheme, storeTheme } from './theme.js';
import { defaultTheme, isTheme, themeStorageKey, type Theme } from './theme-boot.js';

export interface ThemeContextValue {
  theme: Theme;
  /** Applies the theme to the root element and remembers it under `clip-theme`. */
  setTheme: (theme: Theme) => void;
  /** dark ↔ light. */
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export interface ThemeProviderProps {
  children?: ReactNode;
}

/**
 * Owns the theme for the app. It starts from the stored choice (the same one themeBootScript
 * already applied before the first paint), keeps the root class in step, persists only explicit
 * choices, and follows changes made in other tabs.
 */
export function ThemeProvider({ children }: ThemeProviderProps) {
  const [theme, setThemeState] = useState<Theme>(readStoredTheme);

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== themeStorageKey && event.key !== null) return;
      setThemeState(isTheme(event.newValue) ? event.newValue : defaultTheme);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const setTheme = useCallback((next: Theme) => {
    storeTheme(next);
    // Applied at once rather than after the re-render, so CSS transitions start in the same frame.
    applyTheme(next);
    setThemeState(next);
  }, []);

  const toggleTheme = useCallback(() => setTheme(theme === 'dark' ? 'light' : 'dark'), [setTheme, theme]);

  const value = useMemo(() => ({ theme, setTheme, toggleTheme }), [theme, setTheme, toggleTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useTheme() must be used inside <ThemeProvider>.');
  return context;
}
