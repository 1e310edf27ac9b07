import { runService } from '@clipit/service-kit';
import { bootstrapCampaigns } from './app.js';

await runService('campaigns', () => bootstrapCampaigns());
