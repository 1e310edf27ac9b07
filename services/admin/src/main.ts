import { runService } from '@clipit/service-kit';
import { bootstrapAdmin } from './app.js';

await runService('admin', () => bootstrapAdmin());
