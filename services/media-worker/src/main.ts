import { runService } from '@clipit/service-kit';
import { bootstrapMediaWorker } from './app.js';
import { shutdownGraceMs } from './config.js';

await runService('media-worker', () => bootstrapMediaWorker(), shutdownGraceMs());
