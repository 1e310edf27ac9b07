import { Controller, Get, Inject, Res } from '@nestjs/common';

/** One readiness dependency (Postgres, NATS, Redis, an upstream service): throws when it is not usable. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

interface ReplyLike {
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

const CHECK_TIMEOUT_MS = 2000;

async function runCheck(check: HealthCheck): Promise<[string, string]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return [check.name, 'ok'];
  } catch (err) {
    return [check.name, `down: ${(err as Error).message}`];
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
    const results = Object.fromEntries(await Promise.all(this.checks.map(runCheck)));
    const ok = Object.values(results).every((r) => r === 'ok');
    reply.status(ok ? 200 : 503);
    reply.header('Cache-Control', 'no-store');
    return { status: ok ? 'ok' : 'unavailable', checks: results };
  }
}
