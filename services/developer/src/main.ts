import { runService } from '@clipit/service-kit';
import { bootstrapDeveloper } from './app.js';

await runService('developer', () => bootstrapDeveloper());
