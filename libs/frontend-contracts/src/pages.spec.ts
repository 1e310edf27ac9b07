import { describe, expect, it } from '@jest/globals';
import { pagesOfManifest } from './pages.js';

const page = { path: '/feed', title: 'ClipTok', description: 'Scroll clips.' };

describe('pagesOfManifest', () => {
  it('reads the pages a remote build listed in its manifest', () => {
    const profile = { ...page, path: '/clipper/:userId', reads: ['/api/clippers/:userId'], extra: 1 };
    expect(pagesOfManifest({ metaData: { name: 'clipit_public', clipit: { pages: [page, profile] } } })).toEqual([
      { ...page, reads: [] },
      { ...page, path: '/clipper/:userId', reads: ['/api/clippers/:userId'] },
    ]);
  });

  it('names what is wrong with a manifest that does not list pages', () => {
    expect(() => pagesOfManifest(null)).toThrow('not a federation manifest: no metaData');
    expect(() => pagesOfManifest({ metaData: {} })).toThrow(
      'the manifest lists no pages (metaData.clipit is missing: built before pages were listed?)',
    );
    expect(() => pagesOfManifest({ metaData: { clipit: { pages: {} } } })).toThrow('metaData.clipit.pages must be an array');
    expect(() => pagesOfManifest({ metaData: { clipit: { pages: [page, { ...page, path: 'feed' }] } } })).toThrow(
      'metaData.clipit.pages[1] needs an absolute path, a title and a description',
    );
    expect(() => pagesOfManifest({ metaData: { clipit: { pages: [{ path: '/x', title: 'X' }] } } })).toThrow('pages[0] needs');
    expect(() => pagesOfManifest({ metaData: { clipit: { pages: [{ ...page, reads: ['https://elsewhere.example/x'] }] } } })).toThrow(
      'metaData.clipit.pages[0].reads must list API paths (/api/…)',
    );
  });
});
