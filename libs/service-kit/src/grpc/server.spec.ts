import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { ExecutionContextHost } from '@nestjs/core/internal';
import { firstValueFrom, Observable } from 'rxjs';
import { currentCorrelationId, currentDeadline } from '../context/correlation.js';
import { GrpcContextInterceptor } from './server.js';

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
