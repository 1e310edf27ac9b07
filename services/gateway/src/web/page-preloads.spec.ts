import { describe, expect, it } from '@jest/globals';
import { linkHeader, matchScore, pagePreloadsOf, preloadsFor, shellStartupOf } from './page-preloads.js';

const manifest = {
  metaData: {
    remoteEntry: { name: 'remoteEntry.js', path: '' },
    clipit: {
      pages: [
        {
          path: '/',
          title: 'Home',
          description: 'd',
          assets: ['css/1.a.css', 'js/1.a.js'],
          reads: ['/api/feed/clips?limit=5', 'https://elsewhere.example/x'],
        },
        {
          path: '/clipper/:userId',
          title: 'Profile',
          description: 'd',
          assets: ['js/2.b.js'],
          reads: ['/api/clipper/:userId', '/api/clipper/:userId/clips?sort=new'],
        },
        { path: '/clipper/new', title: 'New', description: 'd', assets: ['js/3.c.js'] },
        { path: '/old', title: 'Built before assets were listed', description: 'd' },
      ],
    },
  },
  exposes: [
    { path: './AddClipDialog', assets: { js: { sync: ['js/dialog.js'] } } },
    { path: './routes', assets: { js: { sync: ['js/routes.js'] } } },
    { path: './version', assets: { js: { sync: ['js/version.js'] } } },
  ],
};

describe('page preloads', () => {
  const pages = pagePreloadsOf(manifest, '/remotes/public/');

  it("lists each page with the remote's entry, route list and version, then the page's screen files", () => {
    expect(pages.map((p) => [p.pattern, p.reads])).toEqual([
      ['/', ['/api/feed/clips?limit=5']],
      ['/clipper/:userId', ['/api/clipper/:userId', '/api/clipper/:userId/clips?sort=new']],
      ['/clipper/new', []],
      ['/old', []],
    ]);
    expect(pages.map((p) => [p.pattern, p.files])).toEqual([
      [
        '/',
        [
          '/remotes/public/remoteEntry.js',
          '/remotes/public/js/routes.js',
          '/remotes/public/js/version.js',
          '/remotes/public/css/1.a.css',
          '/remotes/public/js/1.a.js',
        ],
      ],
      [
        '/clipper/:userId',
        ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js', '/remotes/public/js/2.b.js'],
      ],
      [
        '/clipper/new',
        ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js', '/remotes/public/js/3.c.js'],
      ],
      ['/old', ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js']],
    ]);
    expect(pagePreloadsOf({ metaData: {} }, '/remotes/admin/')).toEqual([]);
  });

  it('ranks matches like the router: static over dynamic over splat, case-insensitive', () => {
    expect(matchScore('/', '/')).toBeGreaterThan(matchScore('*', '/'));
    expect(matchScore('/clipper/new', '/clipper/new')).toBeGreaterThan(matchScore('/clipper/:userId', '/clipper/new'));
    expect(matchScore('/feed', '/Feed/')).toBeGreaterThan(0);
    expect(matchScore('/feed', '/feed/x')).toBe(-1);
    expect(matchScore('/clipper/:userId', '/clipper')).toBe(-1);
    expect(preloadsFor(pages, '/clipper/42', '?tab=x').at(-1)).toBe('/remotes/public/js/2.b.js');
    expect(preloadsFor(pages, '/clipper/new').at(-1)).toBe('/remotes/public/js/3.c.js');
    expect(preloadsFor(pages, '/nowhere')).toEqual([]);
  });

  it("adds the page's API reads at its plain address, with its path's values in their place", () => {
    expect(preloadsFor(pages, '/').slice(-1)).toEqual(['/api/feed/clips?limit=5']);
    expect(preloadsFor(pages, '/', '?ref=x').some((file) => file.startsWith('/api/'))).toBe(false);
    expect(preloadsFor(pages, '/clipper/a b/').slice(-2)).toEqual(['/api/clipper/a%20b', '/api/clipper/a%20b/clips?sort=new']);
    expect(linkHeader(preloadsFor(pages, '/clipper/a b').slice(-1))).toBe(
      '</api/clipper/a%20b/clips?sort=new>; rel=preload; as=fetch; crossorigin=use-credentials',
    );
  });

  it('writes a Link header: scripts as script, stylesheets as style, JSON and API reads as fetch() asks for them', () => {
    expect(linkHeader(['/remotes.json', '/remotes/public/remoteEntry.js', '/remotes/public/css/1.a.css'])).toBe(
      '</remotes.json>; rel=preload; as=fetch; crossorigin, </remotes/public/remoteEntry.js>; rel=preload; as=script, </remotes/public/css/1.a.css>; rel=preload; as=style',
    );
    // The web apps call the API with credentials: a preload in another credentials mode would go unused.
    expect(linkHeader(['/api/feed/clips?limit=5'])).toBe('</api/feed/clips?limit=5>; rel=preload; as=fetch; crossorigin=use-credentials');
  });

  it("reads the shell's startup files as site paths, ignoring anything that is not one of its scripts or stylesheets", () => {
    expect(shellStartupOf({ files: ['js/main.1.js', 'css/2.b.css', '../x.js', 'https://cdn.example/a.js', 'startup.json', 7] })).toEqual([
      '/js/main.1.js',
      '/css/2.b.css',
    ]);
    expect(shellStartupOf(null)).toEqual([]);
    expect(shellStartupOf({ files: 'js/main.js' })).toEqual([]);
  });
});
