import { describe, expect, it } from '@jest/globals';
import { fastifyCookie } from '@fastify/cookie';
import Fastify from 'fastify';
import { cookiesOf } from './request-cookies.js';

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
