// Configuration as the launcher and the container health check see it: the process environment wins,
// then the repository's .env, then the defaults written in deploy/.env.example (the canonical list).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/** Parses KEY=value lines (comments and blank lines ignored) into a plain object. */
export function parseEnvText(text) {
  return { ...parseEnv(text) };
}

export function readEnvFile(path) {
  return existsSync(path) ? parseEnvText(readFileSync(path, 'utf8')) : undefined;
}

/**
 * @param {string} root repository root (the folder holding package.json)
 * @returns {{ defaults: Record<string,string>, dotenv: Record<string,string>|undefined, dotenvPath: string,
 *   get: (name: string) => string|undefined }}
 */
export function loadConfig(root) {
  const defaults = readEnvFile(join(root, 'deploy/.env.example')) ?? {};
  const dotenvPath = join(root, '.env');
  const dotenv = readEnvFile(dotenvPath);
  const get = (name) => {
    for (const source of [process.env, dotenv ?? {}, defaults]) {
      const value = source[name];
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  };
  return { defaults, dotenv, dotenvPath, get };
}
