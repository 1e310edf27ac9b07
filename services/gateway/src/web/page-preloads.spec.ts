import { describe, expect, it } from '@jest/globals';
import { linkHeader, matchScore, pagePreloadsOf, preloadsFor } from './page-preloads.js';

const manifest = {
  metaData: {
    remoteEntry: { name: 'remoteEntry.js', path: '' },
    clipit: {
      pages: [
        { path: '/', title: 'Home', description: 'd', assets: ['css/1.a.css', 'js/1.a.js'] },
        { path: '/clipper/:userId', title: 'Profile', description: 'd', assets: ['js/2.b.js'] },
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
    expect(pages.map((p) => [p.pattern, p.files])).toEqual([
      ['/', ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js', '/remotes/public/css/1.a.css', '/remotes/public/js/1.a.js']],
      ['/clipper/:userId', ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js', '/remotes/public/js/2.b.js']],
      ['/clipper/new', ['/remotes/public/remoteEntry.js', '/remotes/public/js/routes.js', '/remotes/public/js/version.js', '/remotes/public/js/3.c.js']],
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
    expect(preloadsFor(pages, '/clipper/42').at(-1)).toBe('/remotes/public/js/2.b.js');
    expect(preloadsFor(pages, '/clipper/new').at(-1)).toBe('/remotes/public/js/3.c.js');
    expect(preloadsFor(pages, '/nowhere')).toEqual([]);
  });

  it('writes a Link header: scripts as script, stylesheets as style, JSON as fetch() asks for it', () => {
    expect(linkHeader(['/remotes.json', '/remotes/public/remoteEntry.js', '/remotes/public/css/1.a.css'])).toBe(
      '</remotes.json>; rel=preload; as=fetch; crossorigin, </remotes/public/remoteEntry.js>; rel=preload; as=script, </remotes/public/css/1.a.css>; rel=preload; as=style',
    );
  });
});
