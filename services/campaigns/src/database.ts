import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { ClipperApplicationEntity } from './entities/clipper-application.entity.js';
import { CreateClipperApplications1764300000000 } from './migrations/1764300000000-create-clipper-applications.js';
import { CreateCampaignsAndHiring1766100000000 } from './migrations/1766100000000-create-campaigns-and-hiring.js';
import { AddHireRatings1766900000000 } from './migrations/1766900000000-add-hire-ratings.js';
import { IndexClipsByClipper1766900000001 } from './migrations/1766900000001-index-clips-by-clipper.js';
import { AddClipperProfileRevision1767300000000 } from './migrations/1767300000000-add-clipper-profile-revision.js';
import { AddCampaignAnnouncedProgressStep1767400000000 } from './migrations/1767400000000-add-campaign-announced-progress-step.js';
import { AddClipReviewAndPostUrl1767500000000 } from './migrations/1767500000000-add-clip-review-and-post-url.js';

// campaigns's entities and migrations. A migration is a class in src/migrations/ named
// <timestamp>-<what>.ts; list it here after the ones before it. Never `synchronize`.
// The campaign, profile, hire and read-model tables are read and written with SQL by their repositories.
export const campaignsEntities = [ClipperApplicationEntity];

/** In order; the kit's outbox/inbox tables come first. */
export const campaignsMigrations = [
  CreateEventBusTables1763700000000,
  CreateClipperApplications1764300000000,
  CreateCampaignsAndHiring1766100000000,
  AddHireRatings1766900000000,
  IndexClipsByClipper1766900000001,
  AddClipperProfileRevision1767300000000,
  AddCampaignAnnouncedProgressStep1767400000000,
  AddClipReviewAndPostUrl1767500000000,
];
