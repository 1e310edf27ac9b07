import { status as GrpcStatus } from '@grpc/grpc-js';
import { busyText, type HashedOperation } from '@clipit/field-rules';
import { HttpException, HttpStatus } from '@nestjs/common';
import { GrpcCallError, httpStatusFor } from '@clipit/service-kit';
import { STATUS_CODES } from 'node:http';
import {
  BODY_BAD_LENGTH,
  BODY_NOT_JSON,
  BODY_TOO_LARGE,
  NOT_IMPLEMENTED,
  SERVICE_TIMEOUT,
  SERVICE_UNAVAILABLE,
  SOMETHING_WENT_WRONG,
  TOO_MANY_ATTEMPTS,
  UNSUPPORTED_CONTENT_TYPE,
} from './messages.js';

/** A refusal whose answer carries headers besides the text (Retry-After, Content-Range). */
export class HttpErrorWithHeaders extends HttpException {
  constructor(
    message: string,
    status: number,
    readonly headers: Record<string, string>,
  ) {
    super(message, status);
  }
}

/** 429 with the seconds until the window that was exceeded resets. */
export class RateLimitedError extends HttpErrorWithHeaders {
  constructor(readonly retryAfterSeconds: number) {
    super(TOO_MANY_ATTEMPTS, HttpStatus.TOO_MANY_REQUESTS, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * The designed busy refusal (ADR 0044) when the gateway words it itself: 503 with Retry-After and the busy
 * words of field-rules, the same answer identity gives when it refuses a hash, so the browser (and the web
 * apps' wait-and-retry) cannot tell them apart.
 */
export class BusyError extends HttpErrorWithHeaders {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, HttpStatus.SERVICE_UNAVAILABLE, { 'Retry-After': String(retryAfterSeconds) });
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * The Retry-After told when identity did not answer a sign-up, log-in or reset request within the deadline
 * (its own refusals say how long its line needs; this one knows nothing of the line): a whole second drawn
 * evenly from this range, so a crowd that timed out together does not come back together.
 */
export const TIMEOUT_RETRY_AFTER_SECONDS = { min: 5, max: 15 } as const;

/**
 * identity took longer than the gateway's deadline over a sign-up, log-in or reset request: the machine was
 * slower than identity's admission estimate (ADR 0044). The person gets the designed busy 503, never a 504.
 */
export function busyAfterTimeout(operation: HashedOperation, cause?: unknown, random: () => number = Math.random): BusyError {
  const { min, max } = TIMEOUT_RETRY_AFTER_SECONDS;
  const seconds = Math.min(max, min + Math.floor(random() * (max - min + 1)));
  return new BusyError(busyText(operation, seconds), seconds, { cause });
}

/** identity's answer to a sign-up, log-in or reset request, or the designed busy 503 when it missed the deadline. */
export async function busyOnTimeout<T>(operation: HashedOperation, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof GrpcCallError && err.code === GrpcStatus.DEADLINE_EXCEEDED) throw busyAfterTimeout(operation, err);
    throw err;
  }
}

/** A route that does not exist (set by the not-found path so the text names what was asked for). */
export class RouteNotFoundError extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.NOT_FOUND);
  }
}

/** What the client gets for a failure: a status, a plain-text message, maybe headers. */
export interface ErrorAnswer {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** Server faults are logged with their cause; client errors are not. */
  serverFault: boolean;
}

// Fastify reports body problems with these codes (Nest wraps them in an HttpException whose cause they are).
const FASTIFY_BODY_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, BODY_TOO_LARGE],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, BODY_NOT_JSON],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, UNSUPPORTED_CONTENT_TYPE],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, BODY_BAD_LENGTH],
};

function fastifyCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function clientErrorStatus(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

/** The owner's status and message, except where its text could leak internals. */
export function grpcErrorAnswer(err: GrpcCallError): ErrorAnswer {
  const status = httpStatusFor(err.code);
  // Transport and server-side failures get a fixed text: theirs names hosts, ports, SQL and the like.
  // …unless the service said it on purpose (e.g. "video processing is unavailable right now").
  // The owner refused on purpose because it is busy, before doing anything (ADR 0044): a designed 503 whose
  // Retry-After the web apps wait before trying again; not a fault to log per request.
  if (err.code === GrpcStatus.UNAVAILABLE && err.fromDomain && err.retryAfterSeconds !== undefined)
    return { status, message: err.message, headers: { 'Retry-After': String(err.retryAfterSeconds) }, serverFault: false };
  if (err.code === GrpcStatus.UNAVAILABLE)
    return { status, message: err.fromDomain ? err.message : SERVICE_UNAVAILABLE, serverFault: true };
  if (err.code === GrpcStatus.DEADLINE_EXCEEDED) return { status, message: SERVICE_TIMEOUT, serverFault: true };
  if (err.code === GrpcStatus.UNIMPLEMENTED) return { status, message: NOT_IMPLEMENTED, serverFault: true };
  if (status >= 500) return { status: 500, message: SOMETHING_WENT_WRONG, serverFault: true };
  return { status, message: err.message.trim() || STATUS_CODES[status] || 'Request refused', serverFault: false };
}

function httpExceptionMessage(ex: HttpException): string {
  const response = ex.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  return ex.message;
}

/** Maps anything a request can throw to the answer the client gets. */
export function toErrorAnswer(exception: unknown): ErrorAnswer {
  if (exception instanceof GrpcCallError) return grpcErrorAnswer(exception);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const known = FASTIFY_BODY_ERRORS[fastifyCode(exception.cause) ?? ''];
    if (known) return { status: known[0], message: known[1], serverFault: false };
    // A JSON body that tries to set __proto__ or constructor.prototype.
    if (exception.cause instanceof SyntaxError) return { status: 400, message: BODY_NOT_JSON, serverFault: false };
    // Our own busy refusal: its words and Retry-After go out as they are. Logged: identity missed its estimate.
    if (exception instanceof BusyError)
      return { status, message: httpExceptionMessage(exception), headers: exception.headers, serverFault: true };
    if (status >= 500) {
      // Only texts written for people (ours) go out; a framework's 5xx text is replaced.
      const message = status === 503 ? SERVICE_UNAVAILABLE : SOMETHING_WENT_WRONG;
      return { status, message, serverFault: true };
    }
    const answer: ErrorAnswer = {
      status,
      message: httpExceptionMessage(exception) || STATUS_CODES[status] || 'Request refused',
      serverFault: false,
    };
    if (status === 413) answer.message = answer.message === 'File too large' ? BODY_TOO_LARGE : answer.message;
    if (exception instanceof HttpErrorWithHeaders) answer.headers = exception.headers;
    return answer;
  }
  const code = fastifyCode(exception);
  const known = FASTIFY_BODY_ERRORS[code ?? ''];
  if (known) return { status: known[0], message: known[1], serverFault: false };
  // A plugin's refusal of the request (it says so with a 4xx statusCode): the client's to fix, in text.
  const clientStatus = clientErrorStatus(exception);
  if (clientStatus !== undefined) {
    const message =
      exception instanceof Error && exception.message.trim() ? exception.message : STATUS_CODES[clientStatus] || 'Request refused';
    return { status: clientStatus, message, serverFault: false };
  }
  return { status: 500, message: SOMETHING_WENT_WRONG, serverFault: true };
}
