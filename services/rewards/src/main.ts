import { runService } from '@clipit/service-kit';
import { bootstrapRewards } from './app.js';

await runService('rewards', () => bootstrapRewards());
