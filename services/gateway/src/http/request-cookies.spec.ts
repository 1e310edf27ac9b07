import { describe, expect, it } from '@jest/globals';
import { fastifyCookie } from '@fastify/cookie';
import Fastify from 'fastify';
import { cookieOf, cookiesOf } from './request-cookies.js';

const headers = [
  'clipit.sid=abcdefghijklmnopqrstuvwxyz',
  'a=1; clipit.sid=first; clipit.sid=second',
  '  clipit.sid = spaced\t ; b=2',
  'junk; clipit.sid=after-junk',
  'x=%41%42; y=%zz; clipit.sid=a%2Fb',
  'noequals',
  'k=v=w; empty=; =nameless',
  ';;;clipit.rw=1;',
  'c',
];

describe('cookiesOf', () => {
  it('reads what @fastify/cookie gives a route, quirks included', async () => {
    // The plugin loads its parser once registered.
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.ready();
    for (const header of headers) expect({ ...cookiesOf({ cookie: header }) }).toEqual({ ...app.parseCookie(header) });
    await app.close();
  });

  it('answers nothing without a Cookie header', () => {
    expect({ ...cookiesOf({}) }).toEqual({});
  });

  it('keeps the first of a repeated name and decodes a %-encoded value', () => {
    expect(cookiesOf({ cookie: 'clipit.sid=one; clipit.sid=two' })['clipit.sid']).toBe('one');
    expect(cookiesOf({ cookie: 'clipit.sid=a%2Fb' })['clipit.sid']).toBe('a/b');
  });
});

describe('cookieOf', () => {
  it('reads one cookie as cookiesOf does, for every name of every header, quirks included', () => {
    const names = ['clipit.sid', 'clipit.rw', 'a', 'b', 'x', 'y', 'k', 'empty', '', 'c', 'noequals', 'clipit', 'sid'];
    for (const header of headers)
      for (const name of names)
        expect([header, name, cookieOf({ cookie: header }, name)]).toEqual([header, name, cookiesOf({ cookie: header })[name]]);
  });

  it('agrees with cookiesOf on generated headers', () => {
    // Headers made of the characters the parser treats specially, and names that are prefixes of each other.
    const parts = ['clipit.sid', 'clipit.si', 'clipit.sidd', ' ', '\t', '=', ';', 'v', '%2F', '%zz', 'clipit.rw'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length;
    for (let n = 0; n < 5000; n += 1) {
      const header = Array.from({ length: 1 + (n % 12) }, () => parts[next()]).join('');
      for (const name of ['clipit.sid', 'clipit.rw', 'clipit.si'])
        expect([header, cookieOf({ cookie: header }, name)]).toEqual([header, cookiesOf({ cookie: header })[name]]);
    }
  });

  it('answers nothing without a Cookie header or the cookie', () => {
    expect(cookieOf({}, 'clipit.sid')).toBeUndefined();
    expect(cookieOf({ cookie: 'a=1' }, 'clipit.sid')).toBeUndefined();
  });
});
