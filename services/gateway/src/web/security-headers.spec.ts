import { describe, expect, it } from '@jest/globals';
import { contentSecurityPolicy, remoteOrigins } from './security-headers.js';

describe('the security headers of the site’s HTML', () => {
  it('allows the origins of remotes served elsewhere, once each, and nothing for those served here', () => {
    expect(
      remoteOrigins([
        '/remotes/public/mf-manifest.json',
        'https://cdn.example/admin/mf-manifest.json',
        'https://cdn.example/dashboard/mf-manifest.json',
        'http://127.0.0.1:3002/mf-manifest.json',
      ]),
    ).toEqual(['http://127.0.0.1:3002', 'https://cdn.example']);
    expect(remoteOrigins(['/remotes/public/mf-manifest.json', '//evil.example/x.json'])).toEqual([]);
  });

  it('names scripts, styles and connections by origin only, never inline or eval', () => {
    const policy = contentSecurityPolicy(['https://cdn.example']);
    expect(policy).toContain("script-src 'self' https://cdn.example;");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe|nonce|\*/);
    expect(contentSecurityPolicy()).toContain("script-src 'self';");
  });
});
