import { busyText, type HashedOperation } from '@clipit/field-rules';
import { busy, CONFIG, DomainError, LOGGER, metricOnce, metricsRegistry, remainingDeadlineMs } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Counter } from 'prom-client';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config.js';
import { HashQueue, HashQueueFull, type HashKind } from '../domain/hash-queue.js';
import { hashPassword, needsRehash, scryptParamsOf, verifyAgainstDummy, verifyPassword, type ScryptParams } from '../domain/password.js';

/** Which line's budget each operation gets (ADR 0044): people with an account first. */
const KIND_OF: Record<HashedOperation, HashKind> = {
  'log-in': 'sign-in',
  'wallet-password': 'sign-in',
  'sign-up': 'new-secret',
  'reset-request': 'new-secret',
};

/** A first guess of one hash's time at `cost` until start-up has measured it: ~80 ms at 15 on one core here. */
const guessMs = (cost: number) => 80 * 2 ** (cost - 15);

const refusedTotal = metricOnce(
  'password_hash_refused_total',
  () =>
    new Counter({
      name: 'password_hash_refused_total',
      help: 'Password hashes refused because they would not be done within their budget (answered UNAVAILABLE with a retry-after)',
      labelNames: ['operation'],
      registers: [metricsRegistry],
    }),
);

/**
 * Every scrypt identity runs goes through here: at most PASSWORD_HASH_CONCURRENCY at once on libuv's
 * thread pool (off the event loop), the rest in one line, and a call that would not be done within its
 * budget, or before its caller's deadline less PASSWORD_HASH_DEADLINE_MARGIN_MS, refused at once with
 * UNAVAILABLE and the seconds to wait (ADR 0044).
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  /** The parameters new hashes are made with (PASSWORD_HASH_COST); an older hash is made again at the next log-in. */
  readonly params: ScryptParams;
  private readonly queue: HashQueue;

  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.params = scryptParamsOf(config.PASSWORD_HASH_COST);
    this.queue = new HashQueue({
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      budgetMs: config.PASSWORD_HASH_BUDGET_MS,
      initialMeanMs: guessMs(config.PASSWORD_HASH_COST),
      deadlineMarginMs: config.PASSWORD_HASH_DEADLINE_MARGIN_MS,
      // The gRPC call's deadline, which the kit's interceptor put in the request context: a hash is admitted
      // only if it would be done PASSWORD_HASH_DEADLINE_MARGIN_MS before the caller stops waiting.
      remainingMs: () => remainingDeadlineMs(),
    });
  }

  /**
   * Measures a hash's time as this machine runs a full pool of them, before the first call counts on the
   * estimate, and makes the dummy hash unknown handles are checked against (so no log-in pays for it).
   */
  async onModuleInit(): Promise<void> {
    await verifyAgainstDummy('', this.params);
    const started = performance.now();
    const concurrency = this.config.PASSWORD_HASH_CONCURRENCY;
    await Promise.all(Array.from({ length: concurrency }, () => hashPassword('calibration', this.params)));
    const meanMs = performance.now() - started;
    this.queue.calibrate(meanMs);
    this.logger.info(
      { meanMs: Math.round(meanMs), concurrency, budgetMs: this.config.PASSWORD_HASH_BUDGET_MS },
      'password hashing calibrated',
    );
  }

  /** Refuses at once (UNAVAILABLE with the seconds to wait) when a hash for `operation` would not be done in time; else nothing. */
  assertRoom(operation: HashedOperation): void {
    const seconds = this.queue.refusal(KIND_OF[operation]);
    if (seconds !== undefined) throw this.refused(operation, seconds);
  }

  hash(operation: HashedOperation, password: string): Promise<string> {
    return this.run(operation, () => hashPassword(password, this.params));
  }

  verify(operation: HashedOperation, password: string, stored: string): Promise<boolean> {
    return this.run(operation, () => verifyPassword(password, stored));
  }

  /** The same work as `verify` when no account matched, so the time does not tell whether one exists. Always false. */
  verifyUnknown(operation: HashedOperation, password: string): Promise<false> {
    return this.run(operation, () => verifyAgainstDummy(password, this.params));
  }

  /**
   * A new hash of a password just verified, when its stored one was made with other parameters and the
   * line has room; else undefined: a burst skips the upgrade (it happens at a later log-in), never the log-in.
   */
  async rehashIfDue(password: string, stored: string): Promise<string | undefined> {
    if (!needsRehash(stored, this.params)) return undefined;
    try {
      return await this.queue.run('sign-in', () => hashPassword(password, this.params));
    } catch (err) {
      if (err instanceof HashQueueFull) return undefined;
      throw err;
    }
  }

  private async run<T>(operation: HashedOperation, work: () => Promise<T>): Promise<T> {
    try {
      return await this.queue.run(KIND_OF[operation], work);
    } catch (err) {
      if (err instanceof HashQueueFull) throw this.refused(operation, err.retryAfterSeconds);
      throw err;
    }
  }

  private refused(operation: HashedOperation, seconds: number): DomainError {
    refusedTotal.inc({ operation });
    const { running, waiting, meanMs, paceMs } = this.queue.state;
    this.logger.debug(
      {
        operation,
        retryAfterSeconds: seconds,
        running,
        waiting,
        meanMs: Math.round(meanMs),
        paceMs: Math.round(paceMs),
        remainingDeadlineMs: remainingDeadlineMs(),
      },
      'password hash refused: busy',
    );
    return busy(busyText(operation, seconds), seconds);
  }
}
