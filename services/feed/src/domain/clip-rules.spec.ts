import { describe, expect, it } from '@jest/globals';
import { averageViews, isCreatorTab, isProcessing, mindshare, taggedStreamerOf } from './clip-rules.js';

describe('clip rules', () => {
  it('tags the named streamer, else the token’s streamer once the token is known', () => {
    expect(taggedStreamerOf({ streamerId: 's1', tokenId: null }, null)).toBe('s1');
    expect(taggedStreamerOf({ streamerId: null, tokenId: 't1' }, 's2')).toBe('s2');
    expect(taggedStreamerOf({ streamerId: null, tokenId: 't1' }, null)).toBeNull();
    expect(taggedStreamerOf({ streamerId: null, tokenId: null }, 's2')).toBeNull();
  });

  it('flags a video still uploading or processing', () => {
    expect(isProcessing('awaiting-upload')).toBe(true);
    expect(isProcessing('processing')).toBe(true);
    expect(isProcessing('ready')).toBe(false);
    expect(isProcessing('none')).toBe(false);
  });

  it('gives mindshare as a percent with two decimals, and 0 (not NaN) when nothing has views', () => {
    expect(mindshare(50, 200)).toBe(25);
    expect(mindshare(1, 3)).toBe(33.33);
    expect(mindshare(0, 0)).toBe(0);
    expect(mindshare(5, 0)).toBe(0);
    expect(Number.isNaN(mindshare(0, 0))).toBe(false);
  });

  it('averages views over approved clips, 0 without any', () => {
    expect(averageViews(1000, 3)).toBe(333);
    expect(averageViews(0, 0)).toBe(0);
    expect(averageViews(10, 0)).toBe(0);
  });

  it('knows the two discover tabs and nothing else', () => {
    expect(isCreatorTab('clippers')).toBe(true);
    expect(isCreatorTab('streamers')).toBe(true);
    expect(isCreatorTab('admins')).toBe(false);
    expect(isCreatorTab('toString')).toBe(false);
  });
});
