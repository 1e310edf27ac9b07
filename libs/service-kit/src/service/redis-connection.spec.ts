import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, sharedConfigShape } from '../config/config.js';
import { redisConnectionOptions } from './redis-connection.js';

describe('redisConnectionOptions', () => {
  it('reads REDIS_URL alone as ioredis reads a URL: host, port, user, password, database, TLS', () => {
    expect(redisConnectionOptions({ REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual({ host: '127.0.0.1', port: 6379 });
    expect(redisConnectionOptions({ REDIS_URL: 'rediss://app:s%3Acret@cache.internal:6380/2?family=6' })).toEqual({
      host: 'cache.internal',
      port: 6380,
      username: 'app',
      password: 's:cret',
      db: 2,
      tls: {},
      family: 6,
    });
    expect(redisConnectionOptions({ REDIS_URL: 'redis://:only-password@[::1]' })).toEqual({ host: '::1', password: 'only-password' });
  });

  it('asks the sentinels for the master in Sentinel mode, with the master password and database from REDIS_URL', () => {
    const options = redisConnectionOptions({
      REDIS_URL: 'redis://:master-secret@ignored-host:1/3',
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26379,10.0.0.7:26380',
      REDIS_SENTINEL_MASTER: 'clipit',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(options).toEqual({
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1', port: 26379 },
        { host: '10.0.0.7', port: 26380 },
      ],
      name: 'clipit',
      password: 'master-secret',
      db: 3,
      sentinelPassword: 'sentinel-secret',
    });
    expect(options).not.toHaveProperty('host');
    expect(options).not.toHaveProperty('port');
  });

  it('keeps TLS to the master in Sentinel mode, and sends no sentinel password when none is set', () => {
    const options = redisConnectionOptions({ REDIS_URL: 'rediss://redis', REDIS_SENTINELS: '[fd00::1]:26379', REDIS_SENTINEL_MASTER: 'm' });
    expect(options).toMatchObject({ sentinels: [{ host: 'fd00::1', port: 26379 }], name: 'm', tls: {}, enableTLSForSentinelMode: true });
    expect(options).not.toHaveProperty('sentinelPassword');
  });

  it('refuses a half-set or malformed Sentinel configuration, and a URL it cannot read', () => {
    const url = 'redis://127.0.0.1:6379';
    expect(() => redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINELS: 's:26379' })).toThrow(
      'REDIS_SENTINELS and REDIS_SENTINEL_MASTER are set together (Sentinel mode) or not at all',
    );
    expect(() => redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINEL_MASTER: 'm' })).toThrow('set together');
    expect(() => redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINEL_PASSWORD: 'x' })).toThrow(
      'REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not',
    );
    for (const bad of ['s', 's:', 's:0', 's:70000', 's:26379,', 'a b:1', 'http://s:26379']) {
      expect(() => redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINELS: bad, REDIS_SENTINEL_MASTER: 'm' })).toThrow(
        `REDIS_SENTINELS=${JSON.stringify(bad)} must be host:port,host:port,…`,
      );
    }
    expect(() => redisConnectionOptions({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow('REDIS_URL must start with redis:// or rediss://');
    expect(() => redisConnectionOptions({ REDIS_URL: 'redis://127.0.0.1:6379/zero' })).toThrow("REDIS_URL's database must be a number");
  });
});

describe('the Sentinel variables at boot', () => {
  const load = (env: NodeJS.ProcessEnv) => loadConfig(sharedConfigShape, env);

  it('are unset by default, and read as a whole when set', () => {
    expect(load({})).toMatchObject({ REDIS_SENTINELS: undefined, REDIS_SENTINEL_MASTER: undefined, REDIS_SENTINEL_PASSWORD: undefined });
    const config = load({ REDIS_SENTINELS: 'a:26379,b:26379', REDIS_SENTINEL_MASTER: 'clipit', REDIS_SENTINEL_PASSWORD: 'p' });
    expect(redisConnectionOptions(config)).toMatchObject({
      sentinels: [{ host: 'a' }, { host: 'b' }],
      name: 'clipit',
      sentinelPassword: 'p',
    });
  });

  it('stop start-up when one of the pair is missing, or the list is not host:port', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        load(env);
      } catch (err) {
        if (err instanceof ConfigError) return err.problems;
        throw err;
      }
      return [];
    };
    expect(problems({ REDIS_SENTINELS: 'a:26379' })).toEqual([
      'REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not: Sentinel mode needs both',
    ]);
    expect(problems({ REDIS_SENTINEL_MASTER: 'clipit', REDIS_SENTINEL_PASSWORD: 'p' })).toEqual([
      'REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not: Sentinel mode needs both',
      'REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not: it is only used to reach the sentinels',
    ]);
    expect(problems({ REDIS_SENTINELS: 'a:26379;b:26379', REDIS_SENTINEL_MASTER: 'two words' })).toEqual([
      'REDIS_SENTINELS="a:26379;b:26379" is invalid: must be host:port,host:port,… (ports 1 to 65535)',
      'REDIS_SENTINEL_MASTER="two words" is invalid: must be the name the sentinels monitor the master under (no spaces)',
    ]);
  });
});
