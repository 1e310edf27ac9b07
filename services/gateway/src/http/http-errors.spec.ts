import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { busyText } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import { busyAfterTimeout, busyOnTimeout, RateLimitedError, TIMEOUT_RETRY_AFTER_SECONDS, toErrorAnswer } from './http-errors.js';

const grpc = (code: status, message: string) => new GrpcCallError(code, message, 'SignUp');
/** What Nest hands the filter for an error Fastify raised before the route (a FastifyError as cause). */
const fastifyError = (code: string, statusCode: number) =>
  new HttpException('fastify text', statusCode, {
    cause: Object.assign(new Error('fastify text'), { name: 'FastifyError', code, statusCode }),
  });

describe('toErrorAnswer', () => {
  it('passes the owner’s message through for client errors, with the mapped status', () => {
    expect(toErrorAnswer(grpc(status.INVALID_ARGUMENT, 'Please enter a valid URL'))).toMatchObject({
      status: 400,
      message: 'Please enter a valid URL',
    });
    expect(toErrorAnswer(grpc(status.ALREADY_EXISTS, 'That Twitter handle is already registered'))).toMatchObject({ status: 409 });
    expect(toErrorAnswer(grpc(status.UNAUTHENTICATED, 'Not signed in'))).toMatchObject({ status: 401, message: 'Not signed in' });
    expect(toErrorAnswer(grpc(status.NOT_FOUND, 'No account matches'))).toMatchObject({
      status: 404,
      message: 'No account matches',
      serverFault: false,
    });
    expect(toErrorAnswer(grpc(status.RESOURCE_EXHAUSTED, 'Slow down'))).toMatchObject({ status: 429, message: 'Slow down' });
  });

  it('never leaks internal error texts', () => {
    for (const code of [status.INTERNAL, status.UNKNOWN, status.DATA_LOSS]) {
      expect(toErrorAnswer(grpc(code, 'relation "users" does not exist'))).toEqual({
        status: 500,
        message: 'Something went wrong. Please try again.',
        serverFault: true,
      });
    }
    expect(toErrorAnswer(new Error('ECONNREFUSED 10.0.0.3:5432'))).toMatchObject({
      status: 500,
      message: 'Something went wrong. Please try again.',
    });
    expect(toErrorAnswer(new InternalServerErrorException('stack trace here'))).toMatchObject({
      status: 500,
      message: 'Something went wrong. Please try again.',
    });
  });

  it('says the service is unavailable or slow instead of the transport text', () => {
    expect(toErrorAnswer(grpc(status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED'))).toMatchObject({
      status: 503,
      message: 'Service temporarily unavailable',
    });
    expect(toErrorAnswer(grpc(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.001s'))).toMatchObject({ status: 504 });
  });

  it('passes on an UNAVAILABLE the service answered on purpose: its message is written for people', () => {
    const onPurpose = new GrpcCallError(
      status.UNAVAILABLE,
      'Video processing is unavailable right now; please try again in a minute',
      'FinalizeVideoUpload',
      true,
    );
    expect(toErrorAnswer(onPurpose)).toEqual({
      status: 503,
      message: 'Video processing is unavailable right now; please try again in a minute',
      serverFault: true,
    });
  });

  it('answers an owner too busy to serve in time as a 503 with its text and Retry-After, not a fault (ADR 0044)', () => {
    const busy = new GrpcCallError(status.UNAVAILABLE, 'Too many sign-ins right now; please try again in 7 seconds', 'LogIn', true, 7);
    expect(toErrorAnswer(busy)).toEqual({
      status: 503,
      message: 'Too many sign-ins right now; please try again in 7 seconds',
      headers: { 'Retry-After': '7' },
      serverFault: false,
    });
    // A transport failure never carries the owner's advice, whatever its metadata says.
    expect(toErrorAnswer(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'LogIn', false, 7))).toEqual({
      status: 503,
      message: 'Service temporarily unavailable',
      serverFault: true,
    });
  });

  describe('identity missing the deadline of a sign-up, log-in or reset request (ADR 0044)', () => {
    const timedOut = () => new GrpcCallError(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.002s', 'LogIn');

    it('is answered as the designed busy 503, with Retry-After and the same words as identity’s own refusal', async () => {
      for (const operation of ['sign-up', 'log-in', 'reset-request'] as const) {
        const thrown = await busyOnTimeout(operation, Promise.reject(timedOut())).then(
          () => undefined,
          (err: unknown) => err,
        );
        const answer = toErrorAnswer(thrown);
        const seconds = Number(answer.headers?.['Retry-After']);
        expect(answer).toEqual({
          status: 503,
          message: busyText(operation, seconds),
          headers: { 'Retry-After': String(seconds) },
          serverFault: true,
        });
        expect(seconds).toBeGreaterThanOrEqual(TIMEOUT_RETRY_AFTER_SECONDS.min);
        expect(seconds).toBeLessThanOrEqual(TIMEOUT_RETRY_AFTER_SECONDS.max);
      }
    });

    it('spreads the seconds told over the whole range, never outside it', () => {
      const told = [0, 0.0999, 0.5, 0.999999, 1].map((r) => busyAfterTimeout('log-in', undefined, () => r).retryAfterSeconds);
      expect(told).toEqual([5, 6, 10, 15, 15]);
    });

    it('leaves every other failure as it was: only a timeout becomes the busy answer', async () => {
      const denied = new GrpcCallError(status.ALREADY_EXISTS, 'That Twitter handle is already registered', 'SignUp', true);
      await expect(busyOnTimeout('sign-up', Promise.reject(denied))).rejects.toBe(denied);
      await expect(busyOnTimeout('sign-up', Promise.resolve('ok'))).resolves.toBe('ok');
      // Elsewhere a timeout is still a 504.
      expect(toErrorAnswer(timedOut())).toMatchObject({ status: 504, message: 'The service took too long to answer. Please try again.' });
    });
  });

  it('turns Fastify body errors into texts a person can act on', () => {
    expect(toErrorAnswer(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413))).toMatchObject({
      status: 413,
      message: 'Request body is too large',
    });
    expect(toErrorAnswer(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400))).toMatchObject({
      status: 400,
      message: 'Request body is not valid JSON',
    });
    expect(toErrorAnswer(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).status).toBe(415);
    expect(toErrorAnswer(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).message).toMatch(/^Unsupported content type: send JSON/);
  });

  it('answers a plugin’s client error with its status and text, and anything else unknown as 500 without its text', () => {
    const plugin = Object.assign(new Error('Multipart: Boundary not found'), { code: 'FST_SOMETHING', statusCode: 400 });
    expect(toErrorAnswer(plugin)).toEqual({ status: 400, message: 'Multipart: Boundary not found', serverFault: false });
    expect(toErrorAnswer(Object.assign(new Error('db down at 10.0.0.1'), { statusCode: 503 }))).toEqual({
      status: 500,
      message: 'Something went wrong. Please try again.',
      serverFault: true,
    });
    expect(toErrorAnswer(new TypeError('x is undefined'))).toMatchObject({
      status: 500,
      message: 'Something went wrong. Please try again.',
    });
  });

  it('keeps our own texts and statuses', () => {
    expect(toErrorAnswer(new BadRequestException('Twitter handle is required'))).toMatchObject({
      status: 400,
      message: 'Twitter handle is required',
    });
    expect(toErrorAnswer(new ForbiddenException('Cross-site request refused'))).toMatchObject({
      status: 403,
      message: 'Cross-site request refused',
    });
    expect(toErrorAnswer(new PayloadTooLargeException('Profile picture must be 5 MB or smaller'))).toMatchObject({
      status: 413,
      message: 'Profile picture must be 5 MB or smaller',
    });
  });

  it('adds Retry-After to 429s from the limiter', () => {
    expect(toErrorAnswer(new RateLimitedError(42))).toEqual({
      status: 429,
      message: 'Too many attempts. Please wait a few minutes and try again.',
      headers: { 'Retry-After': '42' },
      serverFault: false,
    });
  });
});
