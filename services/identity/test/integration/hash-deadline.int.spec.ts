import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { identityV1 } from '@clipit/contracts';
import { busyText } from '@clipit/field-rules';
import { createGrpcClient } from '@clipit/service-kit';
import { newSignUp, rejected, startIdentity, type IdentityHarness } from '../support/identity-harness.js';

// The caller's gRPC deadline reaches the hashing line (ADR 0044) through the real server: grpc-js reads the
// client's grpc-timeout, the kit's interceptor puts it in the request context, and a hash that could not be
// done PASSWORD_HASH_DEADLINE_MARGIN_MS before it is refused at once, as the designed busy refusal, with
// nothing written. Real Postgres, NATS and gRPC.

const MARGIN_MS = 1000;
let h: IdentityHarness;
/** A caller that waits only 600 ms: less than the margin identity keeps for the work after a hash. */
let hurried: ReturnType<typeof createGrpcClient<identityV1.IdentityServiceClient>>;

beforeAll(async () => {
  h = await startIdentity({ PASSWORD_HASH_DEADLINE_MARGIN_MS: MARGIN_MS });
  hurried = createGrpcClient<identityV1.IdentityServiceClient>({
    url: h.grpcUrl,
    packageName: 'identity.v1',
    serviceName: 'IdentityService',
    protoFile: 'identity/v1/identity.proto',
    deadlineMs: 600,
  });
});

afterAll(async () => {
  hurried?.close();
  await h?.stop();
});

describe('the caller’s deadline and password hashing', () => {
  it('refuses a sign-up at once when its caller would stop waiting within the margin: busy, with a retry-after, nothing written', async () => {
    const req = newSignUp();
    const before = await h.count('SELECT count(*) FROM users');
    const err = await rejected(hurried.signUp(req));
    expect({ code: err.code, fromDomain: err.fromDomain }).toEqual({ code: status.UNAVAILABLE, fromDomain: true });
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(err.message).toBe(busyText('sign-up', err.retryAfterSeconds!));
    expect(await h.count('SELECT count(*) FROM users')).toBe(before);
    // The same sign-up from a caller with time to wait is served: the line itself is empty.
    const made = await h.client.signUp(req);
    expect(made.user!.twitterUsername).toBe(req.twitterHandle);
  });

  it('refuses a log-in the same way, and serves it for a caller with time to wait', async () => {
    const req = newSignUp();
    await h.client.signUp(req);
    const login = { twitterHandle: req.twitterHandle, password: req.password, client: req.client };
    const err = await rejected(hurried.logIn(login));
    expect({ code: err.code, message: err.message }).toEqual({
      code: status.UNAVAILABLE,
      message: busyText('log-in', err.retryAfterSeconds!),
    });
    const sessions = await h.count('SELECT count(*) FROM sessions');
    expect((await h.client.logIn(login)).session!.sid).toMatch(/^[\w-]{43}$/);
    expect(await h.count('SELECT count(*) FROM sessions')).toBe(sessions + 1);
  });
});
