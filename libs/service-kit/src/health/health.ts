import { Controller, Get, Inject, Res } from '@nestjs/common';

/** One readiness dependency (Postgres, NATS, Redis, an upstream service): throws when it is not usable. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
  /**
   * Reported but not required: the service still answers most calls without it (an upstream only some
   * calls need), so being down makes readiness `degraded` (200), not `unavailable` (503). Taking every
   * replica out of traffic because of one such upstream would turn its outage into a whole outage.
   */
  optional?: boolean;
}

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

interface ReplyLike {
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

const CHECK_TIMEOUT_MS = 2000;

async function runCheck(check: HealthCheck): Promise<[string, string, boolean]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return [check.name, 'ok', true];
  } catch (err) {
    return [check.name, `down: ${(err as Error).message}`, check.optional === true];
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness says the process runs; readiness says every dependency answers, so traffic may come. */
@Controller('health')
export class HealthController {
  constructor(@Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[]) {}

  @Get('live')
  live(@Res({ passthrough: true }) reply: ReplyLike): { status: string } {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  }

  @Get(['ready', ''])
  async ready(@Res({ passthrough: true }) reply: ReplyLike): Promise<{ status: string; checks: Record<string, string> }> {
    const results = await Promise.all(this.checks.map(runCheck));
    const ready = results.every(([, , passable]) => passable);
    const allOk = results.every(([, result]) => result === 'ok');
    reply.status(ready ? 200 : 503);
    reply.header('Cache-Control', 'no-store');
    return {
      status: !ready ? 'unavailable' : allOk ? 'ok' : 'degraded',
      checks: Object.fromEntries(results.map(([name, result]) => [name, result])),
    };
  }
}
