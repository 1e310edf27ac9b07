import { runService } from '@clipit/service-kit';
import { bootstrapWebhookWorker } from './app.js';
import { shutdownGraceMs } from './config.js';

await runService('webhook-worker', () => bootstrapWebhookWorker(), shutdownGraceMs());
