import { runService } from '@clipit/service-kit';
import { bootstrapIdentity } from './app.js';

await runService('identity', () => bootstrapIdentity());
