import { describe, expect, it } from '@jest/globals';
import { parseRemotesManifest } from './remotes.js';

const manifest = {
  name: 'clipit_public',
  metaData: { clipit: { pages: [{ path: '/feed', title: 'ClipTok', description: 'Scroll clips.' }] } },
};

describe('parseRemotesManifest', () => {
  it('reads where each remote lives, and the manifests of those the server serves itself', () => {
    expect(
      parseRemotesManifest({
        remotes: { public: '/remotes/public/mf-manifest.json', admin: 'https://cdn.example/admin/mf-manifest.json' },
      }),
    ).toEqual({
      remotes: { public: '/remotes/public/mf-manifest.json', admin: 'https://cdn.example/admin/mf-manifest.json' },
    });
    expect(parseRemotesManifest({ remotes: { public: '/remotes/public/mf-manifest.json' }, manifests: { public: manifest } })).toEqual({
      remotes: { public: '/remotes/public/mf-manifest.json' },
      manifests: { public: manifest },
    });
  });

  it('names the first thing wrong', () => {
    expect(() => parseRemotesManifest([])).toThrow('remotes manifest must be a JSON object');
    expect(() => parseRemotesManifest({ remotes: { Public: '/x' } })).toThrow(
      'remote name "Public" must be lower-case letters, digits and dashes',
    );
    expect(() => parseRemotesManifest({ remotes: { public: 'ftp://x' } })).toThrow(
      'remote "public" must map to a root-relative path or an http(s) URL',
    );
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, manifests: [] })).toThrow(
      '"manifests" must map remote names to their manifests',
    );
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, manifests: { admin: manifest } })).toThrow(
      '"manifests" has admin, which is not one of the remotes',
    );
    expect(() => parseRemotesManifest({ remotes: { public: '/x' }, manifests: { public: 'x' } })).toThrow(
      '"manifests.public" must be a manifest (a JSON object)',
    );
  });
});
