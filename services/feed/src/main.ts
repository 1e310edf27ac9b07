import { runService } from '@clipit/service-kit';
import { bootstrapFeed } from './app.js';

await runService('feed', () => bootstrapFeed());
