import { Tabs, TabsContent, TabsList, TabsTrigger } from '@clipit/ui';
import type { CurrentUser } from '@clipit/web-api';
import { useSearchParams } from '@clipit/router';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { VerifyEmailBanner } from '../components/account-security.js';
import { ApiKeysCard } from '../components/api-keys.js';
import { CpmCampaignsTab } from '../components/cpm-campaigns-tab.js';
import { FollowersTab } from '../components/followers-tab.js';
import { ProfileTab } from '../components/profile-tab.js';
import { StreamerHeader } from '../components/streamer-header.js';
import { StreamerSummary } from '../components/streamer-summary.js';
import { StreamingTab, StreamTimeCard } from '../components/streaming-tab.js';
import { TaggedVideosTab } from '../components/tagged-videos-tab.js';
import { TokensSection } from '../components/tokens-section.js';
import { WebhooksCard } from '../components/webhooks.js';
import {
  followerCountKey,
  taggedVideosKey,
  useFollowerPages,
  type FollowerCount,
  type FollowerPages,
  type TaggedVideos,
} from '../lib/streamer-data.js';
import './dashboard.css';
import './clipper-dashboard.css';
import './streamer-dashboard.css';
import './campaigns.css';

/** What a tab's panel is drawn from: the signed-in streamer and the dashboard's reads. */
export interface StreamerTabContext {
  user: CurrentUser;
  taggedVideos: UseQueryResult<TaggedVideos>;
  followers: FollowerPages;
}

export interface StreamerTab {
  /** The tab's name in the address (?tab=…); the first tab is the default and leaves the address bare. */
  value: string;
  label: string;
  panel: (context: StreamerTabContext) => ReactNode;
}

/**
 * The streamer dashboard's tabs (spec 02 §2.3), in order. One entry adds a tab: its trigger, its panel and
 * its place in the address. The streaming tab carries the streamer's tokens below the live controls (ADR 0027),
 * then their API keys and webhooks (ADR 0053);
 * the Profile tab is the clipper dashboard's (spec 02 §2.6 names no other place a streamer could edit theirs).
 */
export const STREAMER_TABS: readonly StreamerTab[] = [
  {
    value: 'tagged-videos',
    label: 'Tagged Videos',
    panel: ({ taggedVideos, user }) => <TaggedVideosTab userId={user.id} query={taggedVideos} />,
  },
  { value: 'followers', label: 'Followers', panel: ({ followers }) => <FollowersTab query={followers} /> },
  {
    value: 'streaming',
    label: 'Streaming',
    panel: ({ user }) => (
      <div className="clipit-dash-stack clipit-dash-stack--wide">
        <StreamingTab user={user} />
        <TokensSection />
        <ApiKeysCard />
        <WebhooksCard />
      </div>
    ),
  },
  { value: 'cpm-campaigns', label: 'CPM Campaigns', panel: () => <CpmCampaignsTab /> },
  {
    // Spec 02 §2.6: the clipper dashboard's profile editing, and for a streamer the next stream time beside it.
    value: 'profile',
    label: 'Profile',
    panel: ({ user }) => (
      <div className="clipit-dash-stack clipit-dash-stack--wide">
        <ProfileTab user={user} />
        <StreamTimeCard user={user} />
      </div>
    ),
  },
];

const DEFAULT_TAB = STREAMER_TABS[0]!.value;

/** The streamer dashboard (spec 02 §2.3) for a signed-in streamer: header, summary cards, tabs. */
export function StreamerDashboard({ user }: { user: CurrentUser }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = STREAMER_TABS.some((t) => t.value === requested) ? requested! : DEFAULT_TAB;

  // All three are read at once: the summary cards need the count and the videos, the tabs their lists.
  const followerCount = useQuery<FollowerCount>({ queryKey: followerCountKey(user.id) });
  const taggedVideos = useQuery<TaggedVideos>({ queryKey: taggedVideosKey(user.id) });
  const followers = useFollowerPages(user.id);

  const selectTab = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === DEFAULT_TAB) next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );

  const context: StreamerTabContext = { user, taggedVideos, followers };
  return (
    <div className="clipit-dash-page clipit-dash-page--dashboard clipit-dash-page--streamer">
      <StreamerHeader user={user} />
      <VerifyEmailBanner user={user} />
      <StreamerSummary followerCount={followerCount} taggedVideos={taggedVideos} isLive={user.isLive === 'true'} />
      <Tabs value={tab} onValueChange={selectTab} className="clipit-dash-tabs">
        <TabsList aria-label="Dashboard sections">
          {STREAMER_TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {/* A panel's content is drawn only while its tab is selected (TabsContent). */}
        {STREAMER_TABS.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {t.panel(context)}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
