import { runService } from '@clipit/service-kit';
import { bootstrapSubmissions } from './app.js';

await runService('submissions', () => bootstrapSubmissions());
