import { HEALTH_CHECKS, HealthController, MetricsController, type HealthCheck } from '@clipit/service-kit';
import { Module, type DynamicModule } from '@nestjs/common';

/**
 * The worker's HTTP side: /health/live, /health/ready and /metrics, nothing else. The jobs run in
 * the BullMQ worker that bootstrap starts beside it.
 */
@Module({})
export class MediaWorkerModule {
  static forRoot(checks: HealthCheck[]): DynamicModule {
    return {
      module: MediaWorkerModule,
      controllers: [HealthController, MetricsController],
      providers: [{ provide: HEALTH_CHECKS, useValue: checks }],
    };
  }
}
