// Answers of the gateway as the dashboard's specs play them: typed by the generated API, so a changed
// field fails the specs' type-check.
import type { CpmCampaign, CpmCampaignsPage, CurrentUser, HireRequest, HireRequestsPage, HiringProfile, MyToken } from '@clipit/web-api';
import type { ApiKey } from '../components/api-keys.js';
import type { WebhookDelivery, WebhookEndpoint } from '../components/webhooks.js';
import type { ClipperStats, Dashboard, EarningsPage, MySubmissions, PayoutsPage } from '../lib/dashboard-data.js';
import type { FollowerCount, FollowersPage, TaggedVideos } from '../lib/streamer-data.js';

export const USER_ID = 'u-1';

export const currentUser: CurrentUser = {
  id: USER_ID,
  email: 'ada@example.com',
  emailVerified: true,
  displayName: 'Ada Clips',
  firstName: null,
  lastName: null,
  twitterUsername: 'adaclips',
  profileImageUrl: null,
  bannerImageUrl: null,
  walletAddress: null,
  role: 'clipper',
  currentTier: 1,
  nextStreamTime: null,
  isLive: 'false',
  streamerMultiplier: '1.00',
  createdAt: '2026-11-01T10:00:00.000Z',
};

export function dashboardAnswer(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    user: {
      id: USER_ID,
      displayName: 'Ada Clips',
      twitterUsername: 'adaclips',
      email: 'ada@example.com',
      profileImageUrl: null,
      bannerImageUrl: null,
      role: 'clipper',
      currentTier: 1,
      isLive: 'false',
      nextStreamTime: null,
    },
    tierProgress: {
      currentTier: { name: 'Bronze', ratePerClip: 10 },
      nextTier: { name: 'Silver', ratePerClip: 15 },
      progressPercent: 40,
      missingRequirements: ['6 more approved clips (4 of 10)', '3 more approved clips in the last 4 weeks (2 of 5)'],
      meetsNextTierRequirements: false,
    },
    metrics: { totalApproved: 4, approvedInWindow: 2, approvalRate: 66.7, avgViews: 1530, approvedThisWeek: 1, windowWeeks: 4 },
    earningsSummary: { paid: 20, pending: 10.5, held: 0, total: 30.5 },
    payoutHold: null,
    recentSubmissions: [
      {
        id: 's-1',
        name: 'Big win clip',
        platform: 'twitter',
        url: 'https://x.com/adaclips/status/1',
        views: 2500,
        createdAt: '2026-11-20T15:07:00.000Z',
        status: 'approved',
        rejectedReason: null,
      },
      {
        id: 's-2',
        name: 'Blurry clip',
        platform: 'twitter',
        url: null,
        views: 12,
        createdAt: '2026-11-21T09:30:00.000Z',
        status: 'rejected',
        rejectedReason: 'Video is too blurry',
      },
      {
        id: 's-3',
        name: 'Fresh clip',
        platform: 'tiktok',
        url: null,
        views: 0,
        createdAt: '2026-11-22T12:00:00.000Z',
        status: 'pending',
        rejectedReason: null,
      },
    ],
    ...overrides,
  };
}

/** One of the clipper's own submissions as GET /api/submissions lists it: a processed video, no checks yet. */
export function mySubmission(overrides: Partial<MySubmissions[number]> = {}): MySubmissions[number] {
  return {
    id: 's-1',
    userId: USER_ID,
    name: 'Big win clip',
    url: 'https://x.com/adaclips/status/1',
    platform: 'twitter',
    externalId: '1',
    authorHandle: 'adaclips',
    walletAddress: '',
    additionalInfo: null,
    tokenId: null,
    streamerId: null,
    status: 'approved',
    addedToFeed: 'true',
    rejectedReason: null,
    approvedAt: '2026-11-20T16:00:00.000Z',
    videoState: 'ready',
    hasVideo: 'true',
    videoUrl: '/media/videos/v1/video.mp4',
    videoThumbnailUrl: '/media/videos/v1/poster.jpg',
    videoDuration: 20,
    videoAspectRatio: '9:16',
    views: 2500,
    likes: 40,
    retweets: 3,
    replies: 2,
    publishedAt: '2026-11-20T15:00:00.000Z',
    verifiedAt: null,
    createdAt: '2026-11-20T15:07:00.000Z',
    updatedAt: '2026-11-20T16:00:00.000Z',
    verificationCode: 'CLIP-AB12CD',
    lastMetricsFetch: null,
    isProcessing: false,
    videoRejectedReason: null,
    muxPlaybackId: null,
    videoFileName: 'clip.mp4',
    videoFileSize: 4_194_304,
    guideChecks: null,
    viewsReview: null,
    ...overrides,
  };
}

export function statsAnswer(overrides: Partial<ClipperStats> = {}): ClipperStats {
  return {
    points: 420,
    tier: 'bronze',
    rank: 3,
    totalClippers: 17,
    breakdown: { approvedCount: 4, basePoints: 26, viewBonusPoints: 612, approvalRatio: 0.667, inactivityPenalty: true, finalPoints: 420 },
    lockedFeatures: ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'],
    lastUpdated: '2026-11-22T12:00:00.000Z',
    ...overrides,
  };
}

export const payoutsAnswer: PayoutsPage = {
  payouts: [
    {
      id: 'p-1',
      periodStart: '2026-11-13T00:00:00.000Z',
      periodEnd: '2026-11-20T00:00:00.000Z',
      walletAddress: 'Wa11et',
      amount: 20,
      signature: '5kSolanaSignatureAbcdefghijkLMNOP',
      driver: 'solana',
      paidAt: '2026-11-20T12:00:00.000Z',
      earningsCount: 2,
    },
    {
      id: 'p-0',
      periodStart: '2026-11-06T00:00:00.000Z',
      periodEnd: '2026-11-13T00:00:00.000Z',
      walletAddress: 'Wa11et',
      amount: 5,
      signature: 'ledger-7f3a',
      driver: 'ledger',
      paidAt: '2026-11-13T12:00:00.000Z',
      earningsCount: 1,
    },
  ],
  nextCursor: null,
};

export const earningsAnswer: EarningsPage = {
  earnings: [
    {
      id: 'e-2',
      submissionId: 's-3',
      submissionName: 'Fresh clip',
      amount: 10.5,
      type: 'post',
      status: 'pending',
      periodStart: null,
      periodEnd: null,
      txHash: null,
      payoutId: null,
      createdAt: '2026-11-22T12:00:00.000Z',
      holdReasons: [],
      decision: null,
    },
    {
      id: 'e-1',
      submissionId: 's-1',
      submissionName: 'Big win clip',
      amount: 10,
      type: 'post',
      status: 'paid',
      periodStart: '2026-11-13T00:00:00.000Z',
      periodEnd: '2026-11-20T00:00:00.000Z',
      txHash: '5kSolanaSignatureAbcdefghijkLMNOP',
      payoutId: 'p-1',
      createdAt: '2026-11-19T12:00:00.000Z',
      holdReasons: [],
      decision: null,
    },
  ],
  nextCursor: null,
};

export const STREAMER_ID = 'st-1';

export const streamerUser: CurrentUser = {
  ...currentUser,
  id: STREAMER_ID,
  email: 'sam@example.com',
  displayName: 'Sam Streams',
  twitterUsername: 'samstreams',
  role: 'streamer',
  nextStreamTime: '2026-12-01T20:30:00.000Z',
  isLive: 'false',
};

export const followerCountAnswer = (count = 2): FollowerCount => ({ count });

export function followersAnswer(followers: FollowersPage['followers'] = defaultFollowers): FollowersPage {
  return { followers, nextCursor: null, total: followers.length };
}
const defaultFollowers: FollowersPage['followers'] = [
  { id: 'f-1', displayName: 'Fan One', twitterUsername: 'fanone', profileImageUrl: 'https://cdn.example.com/fan-one.png' },
  { id: 'f-2', displayName: null, twitterUsername: 'fantwo', profileImageUrl: null },
];

export function taggedVideosAnswer(videos: TaggedVideos['videos'] = defaultVideos, page: Partial<TaggedVideos> = {}): TaggedVideos {
  return { videos, nextCursor: null, total: videos.length, ...page };
}
const defaultVideos: TaggedVideos['videos'] = [
  {
    id: 'v-1',
    name: 'Clutch moment',
    muxPlaybackId: null,
    videoThumbnailUrl: 'https://cdn.example.com/v-1.jpg',
    status: 'approved',
    views: 12_500,
    likes: 1_200,
  },
  { id: 'v-2', name: 'Funny fail', muxPlaybackId: null, videoThumbnailUrl: null, status: 'pending', views: 0, likes: 3 },
];

export function campaignAnswer(overrides: Partial<CpmCampaign> = {}): CpmCampaign {
  return {
    id: 'c-1',
    streamerId: STREAMER_ID,
    title: 'Launch week push',
    description: 'Clips of our launch stream for crypto traders on X.',
    targetViews: 200_000,
    budgetAmount: 1_000,
    contentLink: 'https://twitch.tv/samstreams',
    status: 'approved',
    deliveredViews: 50_000,
    rejectedReason: null,
    reviewedAt: '2026-11-21T10:00:00.000Z',
    approvedAt: '2026-11-21T10:00:00.000Z',
    completedAt: null,
    createdAt: '2026-11-20T15:07:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

export function campaignsAnswer(
  campaigns: CpmCampaign[] = [
    campaignAnswer(),
    campaignAnswer({ id: 'c-2', title: 'Too spicy', status: 'rejected', deliveredViews: 0, rejectedReason: 'Content link is not allowed' }),
  ],
): CpmCampaignsPage {
  return { campaigns, nextCursor: null, total: campaigns.length };
}

export function tokenAnswer(overrides: Partial<MyToken> = {}): MyToken {
  return {
    id: 't-1',
    streamerId: STREAMER_ID,
    name: 'SAM',
    pumpFunLink: 'https://pump.fun/coin/sam',
    description: 'The Sam Streams coin',
    isActive: 'true',
    ...overrides,
  };
}

export function hireAnswer(overrides: Partial<HireRequest> = {}): HireRequest {
  return {
    id: 'h-1',
    clipperId: USER_ID,
    clientUserId: null,
    clientName: 'Brand Co',
    clientEmail: 'brand@example.com',
    projectDescription: 'Speed Pack: 7 clips delivered within 24 hours ($40).',
    budget: 40,
    urgency: 'high',
    preferredContact: 'telegram',
    contactInfo: '@brandco',
    status: 'pending',
    clipperNotes: null,
    respondedAt: null,
    completedAt: null,
    createdAt: '2026-11-22T12:00:00.000Z',
    ...overrides,
  };
}

export function hiresAnswer(hires: HireRequest[]): HireRequestsPage {
  return { hires, nextCursor: null, total: hires.length };
}

export function hiringProfileAnswer(overrides: Partial<HiringProfile> = {}): HiringProfile {
  return {
    id: 'cp-1',
    userId: USER_ID,
    displayName: 'Ada Clips',
    twitterUsername: 'adaclips',
    bio: 'I cut fast clips.',
    profileImageUrl: null,
    portfolioUrls: ['https://x.com/adaclips'],
    specialties: ['Gaming', 'Crypto'],
    yearsExperience: 2,
    hourlyRate: 25,
    isAvailable: 'true',
    totalHires: 3,
    averageRating: 4.5,
    totalReviews: 2,
    socialLinks: [],
    clipPoints: 1200,
    clipperTier: 'gold',
    canBeHired: true,
    services: [
      { id: 'sv-1', serviceName: 'Speed Pack', description: '7 clips in 24 hours', basePrice: 40, deliveryTimeHours: 24, isActive: true },
    ],
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** An API key as GET /api/keys lists it (ADR 0053): never the key itself, only its first 12 characters. */
export function apiKeyAnswer(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: '0b6f6c1e-4a59-4c59-9a53-3c1e2f0a7d01',
    name: 'Agency reporting',
    prefix: 'clipit_Ab3dE',
    scopes: ['submissions:read'],
    expiresAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: null,
    ...overrides,
  };
}

/** A webhook endpoint as GET /api/webhooks lists it (ADR 0053): never its secret. */
export function webhookAnswer(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: '7a1d2c3b-5e6f-4a70-8b9c-0d1e2f3a4b01',
    url: 'https://hooks.example.com/clipit',
    events: ['submission.approved', 'payout.sent'],
    createdAt: '2026-11-21T10:00:00.000Z',
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    previousSecretUntil: null,
    pendingDeliveries: 0,
    ...overrides,
  };
}

/** A delivery of an endpoint's log (GET /api/webhooks/{id}/deliveries): delivered at the first attempt. */
export function webhookDeliveryAnswer(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: '9c8b7a6d-1e2f-4a3b-8c4d-5e6f7a8b9c01',
    messageId: 'msg_2f1e0d9c8b7a',
    eventType: 'submission.approved',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    latencyMs: 84,
    responseExcerpt: '{"ok":true}',
    createdAt: '2026-11-27T09:00:00.000Z',
    lastAttemptAt: '2026-11-27T09:00:01.000Z',
    deliveredAt: '2026-11-27T09:00:01.000Z',
    nextAttemptAt: null,
    payload: '{"type":"submission.approved"}',
    ...overrides,
  };
}
