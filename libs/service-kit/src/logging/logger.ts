import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LevelWithSilent, type LoggerOptions } from 'pino';
import { currentCorrelationId } from '../context/correlation.js';

/**
 * pino's isoTime, formatted once per millisecond: a busy gateway logs many requests within one, and
 * `toISOString` was a visible share of each request's cost. Same `,"time":"…"` as isoTime.
 */
export function cachedIsoTime(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let last = '';
  return () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      last = `,"time":"${new Date(ms).toISOString()}"`;
    }
    return last;
  };
}

/**
 * The fields every log line gets from where it is written: the correlation id, and the active span's
 * trace and span ids (sampled or not) so a line can be found from its trace (ADR 0054). With tracing off
 * there is no context manager and so never a span.
 */
export function logContextFields(): { correlationId?: string; traceId?: string; spanId?: string } {
  const correlationId = currentCorrelationId();
  const span = trace.getSpanContext(context.active());
  const traced = span !== undefined && isSpanContextValid(span);
  if (!traced) return correlationId ? { correlationId } : {};
  return correlationId ? { correlationId, traceId: span.traceId, spanId: span.spanId } : { traceId: span.traceId, spanId: span.spanId };
}

/**
 * JSON logs, one line an event, each stamped with the service name, the current correlation id and the
 * active span's ids; on stdout unless `destination` says otherwise (tests).
 */
export function createLogger(service: string, level: LevelWithSilent = 'info', destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    messageKey: 'msg',
    timestamp: cachedIsoTime(),
    formatters: { level: (label) => ({ level: label }) },
    mixin: logContextFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's logger interface over pino, so framework messages come out as the same JSON. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }
  setLogLevels(_levels: NestLogLevel[]): void {
    // The level comes from LOG_LEVEL alone.
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, rest: unknown[]): void {
    // Nest passes the context (class name) last, and for errors a stack before it.
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...message });
    } else {
      this.logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}
