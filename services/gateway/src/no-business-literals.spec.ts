// The gateway is a thin edge (ADR 0035): it authenticates, checks a request's shape, applies limits, routes
// to the owner and shapes the answer. The rewards rules (the points tiers, what each leaves locked) and the
// hire rule (gold and available) are their owners' and reach the gateway in their answers, so none of their
// words may be written in the gateway's sources. Tests may name them: they check what is passed on.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIPPER_TIERS } from '@clipit/contracts';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** The user tiers' names (rewards' tiers table) and the points tiers' (rewards' events and answers). */
const TIER_NAMES = new Set(['bronze', 'silver', 'gold', 'diamond', ...CLIPPER_TIERS]);
/** Spec 02 §6's locked features, as the rewards service words them (services/rewards/src/domain/standing.ts). */
const LOCKED_FEATURES = ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'];

const isTest = (file: string) => /\.spec\.ts$/.test(file);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !isTest(entry.name) ? [path] : [];
  });
}

/** Every string literal of `code` ('…', "…" and the text parts of `…`), with its line. */
function stringLiterals(code: string): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  const literal = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
  for (const match of code.matchAll(literal)) {
    const line = code.slice(0, match.index).split('\n').length;
    // A template's text around its ${…} parts.
    for (const part of match[0].slice(1, -1).split(/\$\{[^}]*\}/)) found.push({ text: part, line });
  }
  return found;
}

/** What in `code` is a business literal: a tier's name as a value, or a locked feature's words anywhere. */
function businessLiterals(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const problems: string[] = [];
  for (const { text, line } of stringLiterals(withoutComments)) {
    if (TIER_NAMES.has(text.trim().toLowerCase())) problems.push(`line ${line}: the tier name '${text}'`);
    for (const feature of LOCKED_FEATURES) if (text.includes(feature)) problems.push(`line ${line}: the locked feature '${feature}'`);
  }
  return problems;
}

describe('no business literal in the gateway', () => {
  it('finds a tier name used as a value and a locked feature, and leaves prose and comments alone', () => {
    expect(businessLiterals("const canBeHired = tier === 'gold' && available;")).toEqual(["line 1: the tier name 'gold'"]);
    expect(businessLiterals('tier: z.enum(["bronze", "silver", "gold"]),')).toHaveLength(3);
    expect(businessLiterals("const LOCKED = {\n  silver: ['Hire Button Visibility'],\n};")).toEqual([
      "line 2: the locked feature 'Hire Button Visibility'",
    ]);
    expect(businessLiterals('const a = `${x} Streamer Multipliers`;')).toEqual(["line 1: the locked feature 'Streamer Multipliers'"]);
    expect(businessLiterals("describe('1 Bronze, 2 Silver, 3 Gold, 4 Diamond');\n// tier === 'gold'\n/* 'silver' */")).toEqual([]);
  });

  it('holds for every non-test source file under services/gateway/src', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const problems = files.flatMap((file) =>
      businessLiterals(readFileSync(file, 'utf8')).map((problem) => `${relative(SRC, file)} ${problem}`),
    );
    // The rule's owner answers it: rewards (tiers, locked features), campaigns (canBeHired). Pass it on.
    expect(problems).toEqual([]);
  });
});
