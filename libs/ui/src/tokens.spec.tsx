import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tokens, cssVarName, vars } from './tokens.js';

// styles.css is what components use; tokens is what JavaScript reads. They must not drift apart.
const css = readFileSync(fileURLToPath(new URL('./styles.css', import.meta.url).href), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** Declarations of the first rule whose selector list is exactly `selector`. */
function declarations(selector: string): Map<string, string> {
  const rule = new RegExp(`(^|})\\s*${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/,\s*/g, ',\\s*')}\\s*{([^}]*)}`).exec(css);
  if (!rule) throw new Error(`no rule for ${selector}`);
  return new Map(
    rule[2]!
      .split(';')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('--'))
      .map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as const;
      }),
  );
}

describe('design tokens', () => {
  const themed = { dark: declarations(':root, :root.dark'), light: declarations(':root.light') };
  const shared = declarations(':root');

  it.each(['dark', 'light'] as const)('%s colours and shadows in styles.css match tokens', (theme) => {
    for (const [key, value] of Object.entries(tokens.color[theme])) {
      expect([cssVarName('color', key), themed[theme].get(cssVarName('color', key))]).toEqual([cssVarName('color', key), value]);
    }
    for (const [key, value] of Object.entries(tokens.shadow[theme])) {
      expect(themed[theme].get(cssVarName('shadow', key))).toBe(value);
    }
    // Nothing in the CSS that tokens lacks.
    expect(themed[theme].size).toBe(Object.keys(tokens.color[theme]).length + Object.keys(tokens.shadow[theme]).length);
  });

  it('theme-independent tokens in styles.css match tokens', () => {
    const groups = ['radius', 'space', 'font', 'fontSize', 'duration', 'easing', 'zIndex'] as const;
    let count = 0;
    for (const group of groups) {
      for (const [key, value] of Object.entries(tokens[group])) {
        expect([cssVarName(group, key), shared.get(cssVarName(group, key))]).toEqual([cssVarName(group, key), value]);
        count++;
      }
    }
    expect(shared.size).toBe(count);
  });

  it('reduced motion makes every duration instant', () => {
    const reduced = /@media \(prefers-reduced-motion: reduce\) {\s*:root {([^}]*)}/.exec(css)?.[1] ?? '';
    for (const key of Object.keys(tokens.duration)) {
      expect(reduced).toContain(`${cssVarName('duration', key)}: 0ms;`);
    }
  });

  it('vars point at the custom properties', () => {
    expect(vars.color.textMuted).toBe('var(--clip-color-text-muted)');
    expect(vars.space[4]).toBe('var(--clip-space-4)');
    expect(vars.zIndex.toast).toBe('var(--clip-z-index-toast)');
  });
});
