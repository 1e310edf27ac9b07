import { runService } from '@clipit/service-kit';
import { bootstrapGateway } from './app.js';

await runService('gateway', () => bootstrapGateway());
