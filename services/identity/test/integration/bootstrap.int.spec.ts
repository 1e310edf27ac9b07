import { ConfigError } from '@clipit/service-kit';
import { isolatedNames, testInfra, waitFor } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { bootstrapIdentity } from '../../src/app.js';
import { freePorts } from '@clipit/testing';
import { newSignUp, startIdentity } from '../support/identity-harness.js';

// Start-up refuses bad surroundings loudly, and shutdown lets running calls finish.

describe('bootstrapIdentity', () => {
  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapIdentity({ IDENTITY_GRPC_PORT: 'seventy', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
    await expect(bootstrapIdentity({ IDENTITY_GRPC_PORT: 'seventy', LOG_LEVEL: 'silent' })).rejects.toThrow(
      /IDENTITY_GRPC_PORT="seventy" is invalid/,
    );
  });

  it('refuses, in production, a password hash cost below 15, and starts nothing', async () => {
    // Asked before anything opens: the database named here does not even exist.
    const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
    const production = {
      NODE_ENV: 'production',
      IDENTITY_DATABASE_URL: `${testInfra().postgresUrl}/${isolatedNames('identityprod').database}`,
      IDENTITY_GRPC_PORT: grpcPort,
      IDENTITY_HTTP_PORT: httpPort,
      IDENTITY_BIND_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    } as const;
    await expect(bootstrapIdentity({ ...production, PASSWORD_HASH_COST: 14 })).rejects.toThrow(
      'refusing to start: PASSWORD_HASH_COST must be at least 15 in production (it is 14)',
    );
    await expect(fetch(`http://127.0.0.1:${httpPort}/health/live`)).rejects.toThrow();
  });

  it('says so when the database does not exist, and leaves no server running', async () => {
    const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
    const names = isolatedNames('identitymissing');
    await expect(
      bootstrapIdentity({
        IDENTITY_DATABASE_URL: `${testInfra().postgresUrl}/${names.database}`,
        IDENTITY_GRPC_PORT: grpcPort,
        IDENTITY_HTTP_PORT: httpPort,
        IDENTITY_BIND_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow(/database of IDENTITY_DATABASE_URL does not exist/);
    await expect(fetch(`http://127.0.0.1:${httpPort}/health/live`)).rejects.toThrow();
  });

  it('lets a call in flight finish on close, then stops answering', async () => {
    const h = await startIdentity();
    try {
      await h.client.listTokens({}); // the connection is up, as the gateway's would be
      // The sign-up is held at identity's first read of users, so it is surely in flight when close() begins.
      await h.db.query('BEGIN');
      await h.db.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const inFlight = h.client.signUp(newSignUp());
      await waitFor(
        async () => {
          // This client is inside its transaction, where PostgreSQL keeps the first look at pg_stat_activity
          // until the transaction ends: without clearing it, a poll that came before the sign-up would repeat.
          await h.db.query('SELECT pg_stat_clear_snapshot()');
          const { rows } = await h.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return rows[0]!.n > 0 ? true : undefined;
        },
        10_000,
        'the sign-up waiting at identity',
      );
      const closing = h.identity.close();
      await h.db.query('COMMIT');
      await Promise.all([closing, expect(inFlight).resolves.toMatchObject({ session: { sid: expect.any(String) } })]);
      await expect(fetch(`${h.httpUrl}/health/live`)).rejects.toThrow();
      await expect(h.client.listTokens({})).rejects.toMatchObject({ name: 'GrpcCallError' });
    } finally {
      await h.stop(); // close() is idempotent
    }
  });
});
