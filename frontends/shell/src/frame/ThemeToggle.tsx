import { Button, useTheme } from '@clipit/ui';
import { MoonIcon, SunIcon } from './icons.js';

/** Flips dark ↔ light (saved under clip-theme by the ThemeProvider); its name says what it will do. */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button variant="ghost" size="icon" aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`} onClick={toggleTheme}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
