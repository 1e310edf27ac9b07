import { describe, expect, it } from '@jest/globals';
import { DEFAULT_LINKS, isLinkUrl, linksFromEnv, linksMetaContent, parseLinks } from '@clipit/frontend-contracts';

describe('the header links configuration', () => {
  it('takes each CLIPIT_LINK_* when set and the default otherwise (empty means unset)', () => {
    expect(linksFromEnv({})).toEqual(DEFAULT_LINKS);
    expect(
      linksFromEnv({
        CLIPIT_LINK_CHAT: 'https://chat.example/clip',
        CLIPIT_LINK_BUY: 'https://launch.example/coin/CLIP',
        CLIPIT_LINK_X: '',
      }),
    ).toEqual({ ...DEFAULT_LINKS, chat: 'https://chat.example/clip', buy: 'https://launch.example/coin/CLIP' });
  });

  it('fails the build on a value that is not an http(s) URL, naming the variable', () => {
    expect(() => linksFromEnv({ CLIPIT_LINK_DISCORD: 'discord.gg/clip' })).toThrow('CLIPIT_LINK_DISCORD must be an absolute http(s) URL');
    expect(() => linksFromEnv({ CLIPIT_LINK_TELEGRAM: 'javascript:alert(1)' })).toThrow('CLIPIT_LINK_TELEGRAM');
  });

  it('accepts only absolute http(s) URLs', () => {
    expect(['https://x.com/clip', 'http://localhost:8080/a?b=1'].every(isLinkUrl)).toBe(true);
    for (const bad of ['', ' https://x.com', '/relative', 'ftp://x.com', 'javascript:alert(1)', 'data:text/html,x', 42, null]) {
      expect({ bad, ok: isLinkUrl(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('reads what the build wrote, keeping the page working whatever it finds', () => {
    const custom = { ...DEFAULT_LINKS, x: 'https://x.com/other' };
    expect(parseLinks(JSON.stringify(custom))).toEqual(custom);
    for (const content of [null, undefined, '', '{not json', '[]', '"text"', 'null']) expect(parseLinks(content)).toEqual(DEFAULT_LINKS);
    expect(
      parseLinks(JSON.stringify({ chat: 'javascript:alert(1)', discord: 7, buy: 'https://launch.example/c', extra: 'https://e.x' })),
    ).toEqual({
      ...DEFAULT_LINKS,
      buy: 'https://launch.example/c',
    });
  });

  it('writes a meta content that survives HTML attribute parsing', () => {
    const links = { ...DEFAULT_LINKS, x: 'https://x.com/a?b=1&c="2"<>' };
    const content = linksMetaContent(links);
    expect(content).not.toMatch(/["<>]/);
    const doc = new DOMParser().parseFromString(`<meta name="clipit:links" content="${content}">`, 'text/html');
    expect(parseLinks(doc.querySelector('meta')?.getAttribute('content'))).toEqual(links);
  });
});
