import { runService } from '@clipit/service-kit';
import { bootstrapMetricsWorker } from './app.js';
import { shutdownGraceMs } from './config.js';

await runService('metrics-worker', () => bootstrapMetricsWorker(), shutdownGraceMs());
