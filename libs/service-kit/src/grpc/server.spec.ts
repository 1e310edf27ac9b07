import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/internal';
import pg from 'pg';
import { firstValueFrom, Observable } from 'rxjs';
import { QueryFailedError } from 'typeorm';
import { currentCorrelationId, currentDeadline } from '../context/correlation.js';
import { busy, DomainError, notFound } from './errors.js';
import { protoFile, protoRoot } from '@clipit/contracts';
import { join } from 'node:path';
import { protoDefinition } from './proto.js';
import { GrpcContextInterceptor, GrpcErrorFilter, grpcServerOptions } from './server.js';

// What a gRPC handler sees of its request context: Nest calls it with (request, metadata, call), and the
// interceptor carries the metadata's correlation id and the call's deadline (grpc-js getDeadline(), from the
// client's grpc-timeout) into the request context for the whole handler, across its awaits.

async function handlerSees(metadata: Metadata, call: unknown): Promise<{ correlationId?: string; deadline?: number }> {
  function logIn() {}
  const context = new ExecutionContextHost([{ twitterHandle: 'x' }, metadata, call], null, logIn);
  context.setType('rpc');
  const handler = {
    handle: () =>
      new Observable<{ correlationId?: string; deadline?: number }>((subscriber) => {
        void (async () => {
          await new Promise((r) => setTimeout(r, 1));
          subscriber.next({ correlationId: currentCorrelationId(), deadline: currentDeadline() });
          subscriber.complete();
        })();
      }),
  };
  return firstValueFrom(
    new GrpcContextInterceptor().intercept(context, handler) as Observable<{ correlationId?: string; deadline?: number }>,
  );
}

describe('GrpcContextInterceptor', () => {
  const metadata = () => {
    const md = new Metadata();
    md.set('x-correlation-id', 'corr-42');
    return md;
  };

  it('puts the incoming call’s deadline and correlation id in the request context', async () => {
    const deadline = Date.now() + 5000;
    expect(await handlerSees(metadata(), { getDeadline: () => deadline })).toEqual({ correlationId: 'corr-42', deadline });
    // grpc-js may answer a Date.
    expect(await handlerSees(metadata(), { getDeadline: () => new Date(deadline) })).toMatchObject({ deadline });
  });

  it('has no deadline when the caller sent none (Infinity) or the call does not say', async () => {
    expect(await handlerSees(metadata(), { getDeadline: () => Infinity })).toEqual({ correlationId: 'corr-42', deadline: undefined });
    expect(await handlerSees(new Metadata(), undefined)).toMatchObject({ deadline: undefined, correlationId: expect.any(String) });
  });
});

/** What the filter makes of `exception`: the error object grpc-js sends as the call's status. */
async function answered(exception: unknown): Promise<{ code: number; message: string; metadata?: unknown }> {
  const logged: unknown[] = [];
  const filter = new GrpcErrorFilter((err) => logged.push(err));
  try {
    await firstValueFrom(filter.catch(exception, {} as ArgumentsHost));
  } catch (err) {
    return err as { code: number; message: string };
  }
  throw new Error('the filter answered no error');
}

/** A Postgres error as pg raises it, with its SQLSTATE. */
function pgError(message: string, code: string): Error {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.code = code;
  return err;
}

describe('GrpcErrorFilter', () => {
  it("answers a domain error's own status and words", async () => {
    const answer = await answered(new DomainError(GrpcStatus.NOT_FOUND, 'User not found'));
    expect(answer).toMatchObject({ code: GrpcStatus.NOT_FOUND, message: 'User not found' });
  });

  it('tells clients never to retry an UNAVAILABLE it answers on purpose (grpc-retry-pushback-ms: -1), and only that', async () => {
    const trailers = async (exception: unknown) => {
      const metadata = (await answered(exception)).metadata as Metadata | undefined;
      return metadata?.getMap() ?? {};
    };
    expect(await trailers(busy('Too many sign-ins right now; please try again in 2 seconds', 2))).toEqual({
      'clipit-domain-error': '1',
      'clipit-retry-after': '2',
      'grpc-retry-pushback-ms': '-1',
    });
    expect(await trailers(new DomainError(GrpcStatus.UNAVAILABLE, 'The identity service is unavailable right now'))).toEqual({
      'clipit-domain-error': '1',
      'grpc-retry-pushback-ms': '-1',
    });
    expect(await trailers(notFound('User not found'))).toEqual({ 'clipit-domain-error': '1' });
    // A database outage is no decision of the service: a read may go to another replica.
    expect(await trailers(pgError('sorry, too many clients already', '53300'))).toEqual({});
  });

  it('answers UNAVAILABLE, not INTERNAL, when the database cannot be used right now (the caller may try again)', async () => {
    const outages = [
      pgError('sorry, too many clients already', '53300'),
      new QueryFailedError('SELECT 1', [], pgError('terminating connection due to administrator command', '57P01')),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ];
    for (const outage of outages) {
      const answer = await answered(outage);
      expect(answer.code).toBe(GrpcStatus.UNAVAILABLE);
      // Never the driver's own text: it names hosts, ports and SQL.
      expect(answer.message).toBe('The database is unavailable right now');
    }
  });

  it('answers INTERNAL for anything else, without its text', async () => {
    for (const fault of [new TypeError("Cannot read properties of undefined (reading 'id')"), pgError('syntax error', '42601')]) {
      expect(await answered(fault)).toEqual({ code: GrpcStatus.INTERNAL, message: 'Internal error' });
    }
  });
});

describe('protoDefinition', () => {
  it('loads a contract once per process: servers and clients of it share the definition', () => {
    const first = protoDefinition(protoFile('identity'));
    expect(Object.keys(first)).toContain('identity.v1.IdentityService');
    expect(protoDefinition(protoFile('identity'))).toBe(first);
    expect(protoDefinition(join(protoRoot, protoFile('identity')))).toBe(first);
    expect(protoDefinition(protoFile('feed'))).not.toBe(first);
  });

  it('closes client connections past a maximum age, so clients resolve their target again (ADR 0054)', () => {
    const options = (ages: { maxConnectionAgeMs?: number; maxConnectionAgeGraceMs?: number }) =>
      grpcServerOptions({ packageName: 'identity.v1', protoFile: protoFile('identity'), port: 1, ...ages }).options.channelOptions;
    expect(options({})).toEqual({ 'grpc.max_connection_age_ms': 300_000, 'grpc.max_connection_age_grace_ms': 30_000 });
    expect(options({ maxConnectionAgeMs: 60_000, maxConnectionAgeGraceMs: 5_000 })).toEqual({
      'grpc.max_connection_age_ms': 60_000,
      'grpc.max_connection_age_grace_ms': 5_000,
    });
  });

  it("gives a server's options the shared definition, not a path Nest would load again", () => {
    const { options } = grpcServerOptions({ packageName: 'identity.v1', protoFile: protoFile('identity'), port: 1 });
    expect(options.packageDefinition).toBe(protoDefinition(protoFile('identity')));
    expect(options.protoPath).toBeUndefined();
  });
});
