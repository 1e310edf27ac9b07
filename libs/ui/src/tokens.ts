// The design tokens, for code that needs a value in JavaScript (canvas, charts, inline styles,
// a <meta name="theme-color">). styles.css declares the same values as CSS custom properties and
// is what components use; tokens.spec.tsx keeps the two identical.
import type { Theme } from './theme-boot.js';

/** Colours that change with the theme. Every `*Foreground` is the text colour on that fill. */
export interface ColorTokens {
  background: string;
  surface: string;
  elevated: string;
  border: string;
  text: string;
  textMuted: string;
  primary: string;
  primaryHover: string;
  primaryForeground: string;
  destructive: string;
  destructiveForeground: string;
  success: string;
  successForeground: string;
  warning: string;
  warningForeground: string;
  ring: string;
  overlay: string;
}

export interface ShadowTokens {
  sm: string;
  md: string;
  lg: string;
  /** The brand glow behind primary surfaces. */
  glow: string;
}

// Contrast: text and textMuted reach WCAG AA (4.5:1) on background, surface and elevated; each
// foreground reaches it on its fill; primary, destructive, success and warning are also readable
// as text on background.
const dark: ColorTokens = {
  background: '#09090d',
  surface: '#121218',
  elevated: '#1b1b24',
  border: '#2c2c3a',
  text: '#f5f5f7',
  textMuted: '#a1a1b5',
  primary: '#c6f432',
  primaryHover: '#d6ff5c',
  primaryForeground: '#09090d',
  destructive: '#f85149',
  destructiveForeground: '#09090d',
  success: '#3fb950',
  successForeground: '#09090d',
  warning: '#e3b341',
  warningForeground: '#09090d',
  ring: '#a78bfa',
  overlay: 'rgba(0, 0, 0, 0.72)',
};

const light: ColorTokens = {
  background: '#fafafa',
  surface: '#ffffff',
  elevated: '#f1f1f4',
  border: '#dcdce3',
  text: '#0d0d12',
  textMuted: '#55556a',
  primary: '#4d7c0f',
  primaryHover: '#3f6212',
  primaryForeground: '#ffffff',
  destructive: '#d1242f',
  destructiveForeground: '#ffffff',
  success: '#1a7f37',
  successForeground: '#ffffff',
  warning: '#9a6700',
  warningForeground: '#ffffff',
  ring: '#7c3aed',
  overlay: 'rgba(10, 10, 15, 0.48)',
};

const darkShadow: ShadowTokens = {
  sm: '0 1px 2px rgba(0, 0, 0, 0.5)',
  md: '0 6px 20px rgba(0, 0, 0, 0.5)',
  lg: '0 18px 48px rgba(0, 0, 0, 0.6)',
  glow: '0 0 24px rgba(198, 244, 50, 0.35)',
};

const lightShadow: ShadowTokens = {
  sm: '0 1px 2px rgba(16, 16, 24, 0.08)',
  md: '0 6px 20px rgba(16, 16, 24, 0.12)',
  lg: '0 18px 48px rgba(16, 16, 24, 0.18)',
  glow: '0 0 24px rgba(77, 124, 15, 0.25)',
};

export const tokens = {
  color: { dark, light } satisfies Record<Theme, ColorTokens>,
  shadow: { dark: darkShadow, light: lightShadow } satisfies Record<Theme, ShadowTokens>,
  radius: { sm: '6px', md: '10px', lg: '14px', xl: '20px', full: '9999px' },
  /** A 4 px grid: space[n] is n × 0.25rem. */
  space: {
    0: '0',
    1: '0.25rem',
    2: '0.5rem',
    3: '0.75rem',
    4: '1rem',
    5: '1.25rem',
    6: '1.5rem',
    8: '2rem',
    10: '2.5rem',
    12: '3rem',
    16: '4rem',
  },
  font: {
    sans: "'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    display: "'Space Grotesk', 'Inter', ui-sans-serif, system-ui, sans-serif",
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  },
  fontSize: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.25rem',
    '2xl': '1.5rem',
    '3xl': '2rem',
  },
  /** Durations drop to 0ms under prefers-reduced-motion (in CSS; see prefersReducedMotion()). */
  duration: { fast: '120ms', normal: '200ms', slow: '320ms' },
  easing: {
    standard: 'cubic-bezier(0.2, 0, 0, 1)',
    emphasized: 'cubic-bezier(0.3, 0, 0, 1.3)',
  },
  zIndex: { overlay: '1000', dialog: '1001', toast: '1100' },
} as const;

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The custom property that holds a token, e.g. cssVarName('color', 'textMuted') → '--clip-color-text-muted'. */
export function cssVarName(group: keyof typeof tokens, key: string | number): string {
  return `--clip-${kebab(group)}-${kebab(String(key))}`;
}

type VarMap<T> = { readonly [K in keyof T]: string };

function varsOf<T extends object>(group: keyof typeof tokens, values: T): VarMap<T> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, `var(${cssVarName(group, key)})`])) as VarMap<T>;
}

/**
 * `var(--clip-…)` references for inline styles; they follow the active theme, unlike the raw values
 * in `tokens`: `style={{ color: vars.color.textMuted, padding: vars.space[4] }}`.
 */
export const vars = {
  color: varsOf('color', dark),
  shadow: varsOf('shadow', darkShadow),
  radius: varsOf('radius', tokens.radius),
  space: varsOf('space', tokens.space),
  font: varsOf('font', tokens.font),
  fontSize: varsOf('fontSize', tokens.fontSize),
  duration: varsOf('duration', tokens.duration),
  easing: varsOf('easing', tokens.easing),
  zIndex: varsOf('zIndex', tokens.zIndex),
};

/** True when the user asked the system for less motion (for JS-driven animation such as counters). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}
