import { describe, expect, it } from '@jest/globals';
import { act, render, renderHook, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { applyTheme, readStoredTheme } from './theme.js';
import { defaultTheme, themeBootScript, themeStorageKey } from './theme-boot.js';
import { ThemeProvider, useTheme } from './theme-provider.js';

const root = () => document.documentElement;

function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  return (
    <button type="button" onClick={toggleTheme}>
      Theme: {theme}
    </button>
  );
}

describe('theme helpers', () => {
  it('stores under clip-theme and defaults to dark', () => {
    expect(themeStorageKey).toBe('clip-theme');
    expect(defaultTheme).toBe('dark');
    expect(readStoredTheme()).toBe('dark');
    localStorage.setItem('clip-theme', 'light');
    expect(readStoredTheme()).toBe('light');
    localStorage.setItem('clip-theme', 'sepia');
    expect(readStoredTheme()).toBe('dark');
  });

  it('applyTheme swaps the class on the root element and sets color-scheme', () => {
    root().classList.add('some-app-class');
    applyTheme('light');
    expect(root()).toHaveClass('light', 'some-app-class');
    expect(root()).not.toHaveClass('dark');
    applyTheme('dark');
    expect(root()).toHaveClass('dark');
    expect(root()).not.toHaveClass('light');
    expect(root().style.colorScheme).toBe('dark');
  });
});

describe('themeBootScript', () => {
  const run = () => new Function(themeBootScript)();

  it('sets the default dark class when nothing is stored', () => {
    run();
    expect(root().className).toBe('dark');
    expect(root().style.colorScheme).toBe('dark');
  });

  it('sets the stored theme, replacing a class left by the server', () => {
    localStorage.setItem('clip-theme', 'light');
    root().className = 'dark';
    run();
    expect(root()).toHaveClass('light');
    expect(root()).not.toHaveClass('dark');
  });

  it('ignores an unknown stored value', () => {
    localStorage.setItem('clip-theme', '"><script>');
    run();
    expect(root().className).toBe('dark');
  });

  it('still applies the default when storage throws', () => {
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    try {
      expect(run).not.toThrow();
      expect(root().className).toBe('dark');
      expect(readStoredTheme()).toBe('dark');
    } finally {
      Storage.prototype.getItem = getItem;
    }
  });
});

describe('ThemeProvider / useTheme', () => {
  it('starts from the stored theme and applies it to the root element', () => {
    localStorage.setItem('clip-theme', 'light');
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    expect(screen.getByRole('button')).toHaveTextContent('Theme: light');
    expect(root()).toHaveClass('light');
  });

  it('toggles dark ↔ light, sets the root class and persists under clip-theme', async () => {
    const user = userEvent.setup();
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    const button = screen.getByRole('button');
    expect(button).toHaveTextContent('Theme: dark');
    expect(root()).toHaveClass('dark');
    expect(localStorage.getItem('clip-theme')).toBeNull(); // nothing chosen yet, nothing written

    await user.click(button);
    expect(button).toHaveTextContent('Theme: light');
    expect(root()).toHaveClass('light');
    expect(root()).not.toHaveClass('dark');
    expect(localStorage.getItem('clip-theme')).toBe('light');

    await user.click(button);
    expect(root()).toHaveClass('dark');
    expect(localStorage.getItem('clip-theme')).toBe('dark');
  });

  it('follows a change made in another tab', () => {
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    act(() => {
      localStorage.setItem('clip-theme', 'light');
      window.dispatchEvent(new StorageEvent('storage', { key: 'clip-theme', newValue: 'light' }));
    });
    expect(screen.getByRole('button')).toHaveTextContent('Theme: light');
    expect(root()).toHaveClass('light');
  });

  it('useTheme outside the provider says what is missing', () => {
    expect(() => renderHook(() => useTheme())).toThrow('useTheme() must be used inside <ThemeProvider>.');
  });
});
