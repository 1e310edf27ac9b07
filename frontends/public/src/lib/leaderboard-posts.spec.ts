import { describe, expect, it } from '@jest/globals';
import { embedThumbnail, formatMindshare, oembedKey, previewKind, rankPosts, type LeaderboardPost } from './leaderboard-posts.js';

const post = (id: string, hasVideo: boolean, views: number) => ({ id, hasVideo: hasVideo ? 'true' : 'false', views }) as LeaderboardPost;

describe('rankPosts', () => {
  it('puts posts with an uploaded video first, then the most viewed, whatever order they came in', () => {
    const posts = [post('a', false, 900), post('b', true, 10), post('c', false, 5000), post('d', true, 300), post('e', false, 0)];
    expect(rankPosts(posts).map((p) => p.id)).toEqual(['d', 'b', 'c', 'a', 'e']);
    expect(posts.map((p) => p.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the given order between equals', () => {
    expect(rankPosts([post('x', true, 0), post('y', true, 0), post('z', false, 0)]).map((p) => p.id)).toEqual(['x', 'y', 'z']);
  });
});

describe('previewKind', () => {
  it('video, else embed thumbnail, else a failed upload, else View on X', () => {
    expect(previewKind({ videoUrl: '/media/v.mp4', isProcessing: false }, 'https://pbs.twimg.com/a.jpg')).toBe('video');
    expect(previewKind({ videoUrl: null, isProcessing: true }, 'https://pbs.twimg.com/a.jpg')).toBe('thumbnail');
    expect(previewKind({ videoUrl: null, isProcessing: true }, null)).toBe('upload-failed');
    expect(previewKind({ videoUrl: null, isProcessing: false }, undefined)).toBe('view-on-x');
  });
});

describe('embedThumbnail', () => {
  it('takes the oEmbed thumbnail_url, else the first image of the html', () => {
    expect(embedThumbnail({ thumbnail_url: 'https://pbs.twimg.com/media/x.jpg', html: '<img src="https://other/y.jpg">' })).toBe(
      'https://pbs.twimg.com/media/x.jpg',
    );
    expect(
      embedThumbnail({
        html: '<blockquote><p>hi</p><img alt="" src="https://pbs.twimg.com/media/y.jpg?name=small&amp;format=jpg"></blockquote>',
      }),
    ).toBe('https://pbs.twimg.com/media/y.jpg?name=small&format=jpg');
  });

  it('is null without a usable https image', () => {
    expect(embedThumbnail({ html: '<blockquote><p>just text</p></blockquote>' })).toBeNull();
    expect(embedThumbnail({ html: '<img src="javascript:alert(1)">' })).toBeNull();
    expect(embedThumbnail({ html: "<img src='http://plain/x.jpg'>" })).toBeNull();
    expect(embedThumbnail({ thumbnail_url: 'not a url' })).toBeNull();
    expect(embedThumbnail('<img src="https://a/b.jpg">')).toBeNull();
    expect(embedThumbnail(null)).toBeNull();
  });
});

describe('oembedKey', () => {
  it('is the oEmbed path with the post link encoded', () => {
    expect(oembedKey('https://x.com/clip_king/status/1?s=20&t=a')).toEqual([
      '/api/twitter/oembed?url=https%3A%2F%2Fx.com%2Fclip_king%2Fstatus%2F1%3Fs%3D20%26t%3Da',
    ]);
  });
});

describe('formatMindshare', () => {
  it('shows at most two decimals and a percent sign', () => {
    expect(formatMindshare(33.33)).toBe('33.33%');
    expect(formatMindshare(50)).toBe('50%');
    expect(formatMindshare(12.5)).toBe('12.5%');
    expect(formatMindshare(0)).toBe('0%');
    expect(formatMindshare(Number.NaN)).toBe('0%');
  });
});
