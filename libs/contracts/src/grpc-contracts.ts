import { grpcContract } from './grpc.js';
import * as identityV1 from './generated/identity/v1/identity.js';
import * as submissionsV1 from './generated/submissions/v1/submissions.js';
import * as adminV1 from './generated/admin/v1/admin.js';
import * as campaignsV1 from './generated/campaigns/v1/campaigns.js';
import * as socialV1 from './generated/social/v1/social.js';
import * as feedV1 from './generated/feed/v1/feed.js';
import * as rewardsV1 from './generated/rewards/v1/rewards.js';
import * as developerV1 from './generated/developer/v1/developer.js';

// Each service's contract, for its server and for the services that call it.
export const identityContract = grpcContract<identityV1.IdentityServiceClient>(
  'identity',
  identityV1.IDENTITY_V1_PACKAGE_NAME,
  identityV1.IDENTITY_SERVICE_NAME,
);
export const submissionsContract = grpcContract<submissionsV1.SubmissionsServiceClient>(
  'submissions',
  submissionsV1.SUBMISSIONS_V1_PACKAGE_NAME,
  submissionsV1.SUBMISSIONS_SERVICE_NAME,
);
export const adminContract = grpcContract<adminV1.AdminServiceClient>('admin', adminV1.ADMIN_V1_PACKAGE_NAME, adminV1.ADMIN_SERVICE_NAME);
export const campaignsContract = grpcContract<campaignsV1.CampaignsServiceClient>(
  'campaigns',
  campaignsV1.CAMPAIGNS_V1_PACKAGE_NAME,
  campaignsV1.CAMPAIGNS_SERVICE_NAME,
);
export const socialContract = grpcContract<socialV1.SocialServiceClient>(
  'social',
  socialV1.SOCIAL_V1_PACKAGE_NAME,
  socialV1.SOCIAL_SERVICE_NAME,
);
export const feedContract = grpcContract<feedV1.FeedServiceClient>('feed', feedV1.FEED_V1_PACKAGE_NAME, feedV1.FEED_SERVICE_NAME);
export const rewardsContract = grpcContract<rewardsV1.RewardsServiceClient>(
  'rewards',
  rewardsV1.REWARDS_V1_PACKAGE_NAME,
  rewardsV1.REWARDS_SERVICE_NAME,
);
export const developerContract = grpcContract<developerV1.DeveloperServiceClient>(
  'developer',
  developerV1.DEVELOPER_V1_PACKAGE_NAME,
  developerV1.DEVELOPER_SERVICE_NAME,
);
