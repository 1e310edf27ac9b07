import { describe, expect, it } from '@jest/globals';
import { parseRemotesManifest } from './remotes.js';

const page = { path: '/feed', title: 'ClipTok', description: 'Scroll clips.', reads: ['/api/feed/clips?limit=10'] };

describe('parseRemotesManifest', () => {
  it('reads where each remote lives, and the pages of those the server read itself', () => {
    expect(parseRemotesManifest({ remotes: { public: '/remotes/public/mf-manifest.json', admin: 'https://cdn.example/admin/mf-manifest.json' } })).toEqual({
      remotes: { public: '/remotes/public/mf-manifest.json', admin: 'https://cdn.example/admin/mf-manifest.json' },
    });
    expect(parseRemotesManifest({ remotes: { public: '/remotes/public/mf-manifest.json' }, pages: { public: [{ ...page, assets: ['js/1.js'] }] } })).toEqual({
      remotes: { public: '/remotes/public/mf-manifest.json' },
      pages: { public: [page] },
    });
  });

  it('names the first thing wrong', () => {
    expect(() => parseRemotesManifest([])).toThrow('remotes manifest must be a JSON object');
    expect(() => parseRemotesManifest({ remotes: { Public: '/x' } })).toThrow('remote name "Public" must be lower-case letters, digits and dashes');
    expect(() => parseRemotesManifest({ remotes: { public: 'ftp://x' } })).toThrow('remote "public" must map to a root-relative path or an http(s) URL');
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, pages: [] })).toThrow('"pages" must map remote names to their pages');
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, pages: { admin: [] } })).toThrow('"pages" lists admin, which is not one of the remotes');
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, pages: { public: [{ path: 'feed' }] } })).toThrow('pages.public[0] needs an absolute path, a title and a description');
  });
});
