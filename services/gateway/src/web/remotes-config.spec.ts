import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../config.js';
import { remotesDocument } from './remotes-config.js';

const remotesOf = (value: string) => remotesDocument(loadGatewayConfig({}, { FRONTEND_REMOTES: value }).FRONTEND_REMOTES).remotes;

describe('FRONTEND_REMOTES and GET /remotes.json', () => {
  it('defaults every remote to its build on this gateway', () => {
    expect(remotesOf('')).toEqual({
      public: '/remotes/public/mf-manifest.json',
      dashboard: '/remotes/dashboard/mf-manifest.json',
      admin: '/remotes/admin/mf-manifest.json',
    });
  });

  it('takes overrides as JSON, or from a file', () => {
    expect(remotesOf('{"public":"https://cdn.example/public/2026-11-21/mf-manifest.json"}').public).toBe(
      'https://cdn.example/public/2026-11-21/mf-manifest.json',
    );
    const dir = mkdtempSync(join(tmpdir(), 'clipit-remotes-'));
    try {
      writeFileSync(
        join(dir, 'remotes.json'),
        '{"admin":"/elsewhere/admin/mf-manifest.json","studio":"http://127.0.0.1:3009/mf-manifest.json"}',
      );
      expect(remotesOf(join(dir, 'remotes.json'))).toMatchObject({
        admin: '/elsewhere/admin/mf-manifest.json',
        studio: 'http://127.0.0.1:3009/mf-manifest.json',
        public: '/remotes/public/mf-manifest.json',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['{"public":', /FRONTEND_REMOTES=.* is invalid: is not valid JSON/],
    ['["public"]', /FRONTEND_REMOTES=.* is invalid: must be a JSON object/],
    ['{"Public":"/x.json"}', /remote names are lower-case/],
    ['{"public":"ftp://x/mf-manifest.json"}', /must map to a root-relative path or an http\(s\) URL/],
    ['{"public":"//cdn.example/mf-manifest.json"}', /must map to a root-relative path or an http\(s\) URL/],
    ['/no/such/file.json', /no such file/],
  ])('stops start-up on %s', (value, message) => {
    expect(() => loadGatewayConfig({}, { FRONTEND_REMOTES: value })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({}, { FRONTEND_REMOTES: value })).toThrow(message);
  });
});
