import { runService } from '@clipit/service-kit';
import { bootstrapSocial } from './app.js';

await runService('social', () => bootstrapSocial());
