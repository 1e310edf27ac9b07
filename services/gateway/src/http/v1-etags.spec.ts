import { matchesIfNoneMatch } from './v1-etags.js';

describe('v1 ETags', () => {
  const etag = '"abc123"';

  it("matches the answer's tag in any coding the client kept, weakly, within a list, or *", () => {
    expect(matchesIfNoneMatch('"abc123"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"abc123-br"', etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc123-gzip"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"zzz", "abc123"', etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
  });

  it('does not match another tag, a missing header or a tag that only shares a prefix', () => {
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch('', etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc12"', etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc123-deflate"', etag)).toBe(false);
  });
});
