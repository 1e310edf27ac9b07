import { randomUUID } from 'node:crypto';
import { mapLookup, metricsOf, UnreadableAnswerError } from './lookup-mapping.js';

const post = (externalId: string) => ({ submissionId: randomUUID(), externalId });

// X's answer shapes (GET /2/tweets?ids=…&tweet.fields=public_metrics,created_at,author_id,text,attachments
// &expansions=attachments.media_keys&media.fields=type,public_metrics).
const xPost = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  text: `post ${id}`,
  edit_history_tweet_ids: [id],
  author_id: '2244994945',
  created_at: '2026-11-20T16:28:14.000Z',
  public_metrics: { retweet_count: 3, reply_count: 4, like_count: 5, quote_count: 6, bookmark_count: 7, impression_count: 1200 },
  ...extra,
});
const notFound = (id: string) => ({
  value: id,
  detail: `Could not find tweet with ids: [${id}].`,
  title: 'Not Found Error',
  resource_type: 'tweet',
  parameter: 'ids',
  resource_id: id,
  type: 'https://api.twitter.com/2/problems/resource-not-found',
});

describe('mapLookup', () => {
  it('maps a found post: impressions are the views, the post object is kept as raw', () => {
    const p = post('1460323737035677698');
    const raw = xPost(p.externalId);
    expect(mapLookup([p], { data: [raw] })).toEqual({
      stated: [
        {
          ...p,
          outcome: 'found',
          metrics: { views: 1200, likes: 5, retweets: 3, replies: 4, quotes: 6, bookmarks: 7, videoViews: null },
          publishedAt: '2026-11-20T16:28:14.000Z',
          authorId: '2244994945',
          text: `post ${p.externalId}`,
          raw,
        },
      ],
      unanswered: [],
    });
  });

  it('counts a metric X left out (or sent as something other than a count) as 0, and a bad date or author as null', () => {
    expect(metricsOf({ public_metrics: { like_count: 2, impression_count: -1, retweet_count: 1.5, reply_count: '3' } })).toEqual({
      views: 0,
      likes: 2,
      retweets: 0,
      replies: 0,
      quotes: 0,
      bookmarks: 0,
      videoViews: null,
    });
    expect(metricsOf({})).toEqual({ views: 0, likes: 0, retweets: 0, replies: 0, quotes: 0, bookmarks: 0, videoViews: null });
    const p = post('42');
    const [stated] = mapLookup([p], { data: [{ id: '42', text: 'hi', created_at: 'yesterday' }] }).stated;
    expect(stated).toMatchObject({ outcome: 'found', publishedAt: null, authorId: null, text: 'hi' });
  });

  it("reads the video's own views from the answer's media: the post's video by its media key, null without one", () => {
    const [clip, photo, gif, uncounted, both] = ['11', '12', '13', '14', '15'].map(post) as [
      ReturnType<typeof post>,
      ReturnType<typeof post>,
      ReturnType<typeof post>,
      ReturnType<typeof post>,
      ReturnType<typeof post>,
    ];
    const body = {
      data: [
        xPost('11', { attachments: { media_keys: ['13_11'] } }),
        xPost('12', { attachments: { media_keys: ['3_12'] } }),
        xPost('13', { attachments: { media_keys: ['16_13'] } }),
        xPost('14', { attachments: { media_keys: ['13_14'] } }),
        xPost('15', { attachments: { media_keys: ['13_15a', '13_15b'] } }),
      ],
      includes: {
        media: [
          { media_key: '13_11', type: 'video', public_metrics: { view_count: 5400 } },
          { media_key: '3_12', type: 'photo' },
          { media_key: '16_13', type: 'animated_gif', public_metrics: { view_count: 9 } },
          { media_key: '13_14', type: 'video' },
          { media_key: '13_15a', type: 'video', public_metrics: { view_count: 10 } },
          { media_key: '13_15b', type: 'video', public_metrics: { view_count: 700 } },
          'not a media object',
        ],
      },
    };
    const views = mapLookup([clip, photo, gif, uncounted, both], body).stated.map((s) =>
      s.outcome === 'found' ? s.metrics.videoViews : 'missing',
    );
    expect(views).toEqual([5400, null, null, null, 700]);
    // An answer whose media X left out entirely is read all the same.
    expect(mapLookup([clip], { data: body.data.slice(0, 1) }).stated[0]).toMatchObject({ metrics: { views: 1200, videoViews: null } });
  });

  it("states a deleted or protected post missing with X's error title", () => {
    const gone = post('1');
    const hidden = post('2');
    const body = {
      errors: [
        notFound('1'),
        {
          ...notFound('2'),
          title: 'Authorization Error',
          detail: 'Sorry, you are not authorized to see the Tweet with ids: [2].',
          type: 'https://api.twitter.com/2/problems/not-authorized-for-resource',
        },
      ],
    };
    expect(mapLookup([gone, hidden], body)).toEqual({
      stated: [
        { ...gone, outcome: 'missing', reason: 'Not Found Error' },
        { ...hidden, outcome: 'missing', reason: 'Authorization Error' },
      ],
      unanswered: [],
    });
  });

  it('leaves a post X said nothing about unanswered (not missing), and keeps the job order', () => {
    const [a, b, c] = [post('10'), post('11'), post('12')];
    const mapped = mapLookup([a, b, c], { data: [xPost('12')], errors: [notFound('10')] });
    expect(mapped.stated.map((s) => [s.externalId, s.outcome])).toEqual([
      ['10', 'missing'],
      ['12', 'found'],
    ]);
    expect(mapped.unanswered).toEqual([b]);
  });

  it('ignores errors that are not about a post', () => {
    const p = post('7');
    const mapped = mapLookup([p], {
      errors: [
        { title: 'Some Problem', detail: 'about the request', type: 'about:blank' },
        { resource_type: 'user', resource_id: '7', title: 'Not Found Error' },
      ],
    });
    expect(mapped).toEqual({ stated: [], unanswered: [p] });
  });

  it('answers the same for two submissions of the same post', () => {
    const [a, b] = [post('99'), post('99')];
    const mapped = mapLookup([a, b], { data: [xPost('99')] });
    expect(mapped.stated.map((s) => s.submissionId)).toEqual([a.submissionId, b.submissionId]);
  });

  it('refuses a body that is no lookup answer', () => {
    expect(() => mapLookup([post('1')], '<html>')).toThrow(UnreadableAnswerError);
    expect(() => mapLookup([post('1')], { data: { id: '1' } })).toThrow(/data/);
  });
});
