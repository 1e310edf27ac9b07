import { envExample } from '@clipit/testing';
import { identityConfigShape, loadIdentityConfig } from './config.js';

describe('identity configuration', () => {
  it('lists every variable it reads in deploy/.env.example', () => {
    const listed = Object.keys(envExample());
    expect(Object.keys(identityConfigShape).filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('has the defaults deploy/.env.example gives', () => {
    const example = envExample();
    const given = Object.fromEntries(Object.keys(identityConfigShape).map((name) => [name, example[name]]));
    expect(loadIdentityConfig(given)).toEqual(loadIdentityConfig({}));
  });
});
