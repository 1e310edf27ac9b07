import { Badge, Button, Card, CardContent, CardHeader, CardTitle, Skeleton, Tabs, TabsContent, TabsList, TabsTrigger } from '@clipit/ui';
import { HttpError, useCurrentUser, type CurrentUser } from '@clipit/web-api';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from '@clipit/router';
import { useEffect, type ReactNode } from 'react';
import { SessionsCard, VerifyEmailBanner, WalletCard } from '../components/account-security.js';
import { ApiKeysCard } from '../components/api-keys.js';
import { DashboardHeader } from '../components/dashboard-header.js';
import { HowPointsWork, StatCards, TierProgressCard } from '../components/dashboard-overview.js';
import { EarningsTab } from '../components/earnings-tab.js';
import { HireRequestsTab, usePendingHireCount } from '../components/hire-requests-tab.js';
import { HiringProfileSection } from '../components/hiring-profile-section.js';
import { PointsCard } from '../components/points-card.js';
import { ProfileTab } from '../components/profile-tab.js';
import { SubmissionsTab } from '../components/submissions-tab.js';
import { SubmitClipTab } from '../components/submit-clip-tab.js';
import { WebhooksCard } from '../components/webhooks.js';
import { dashboardKey, type Dashboard } from '../lib/dashboard-data.js';
import { LOGIN_PAGE } from '../lib/navigation.js';
import { StreamerDashboard } from './streamer-dashboard.js';
import './dashboard.css';
import './clipper-dashboard.css';
import './campaigns.css';

const TABS = [
  { value: 'submissions', label: 'Submissions' },
  { value: 'submit', label: 'Submit New Clip' },
  { value: 'earnings', label: 'Earnings' },
  { value: 'profile', label: 'Profile' },
  { value: 'hires', label: 'Hire Requests' },
] as const;
type TabValue = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

function ErrorState({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="clipit-dash-page clipit-dash-center">
      <Card className="clipit-dash-narrow clipit-dash-error" role="alert">
        <CardHeader>
          <CardTitle level={1}>Dashboard Error</CardTitle>
        </CardHeader>
        <CardContent className="clipit-dash-stack">
          <p>{children}</p>
          <div>
            <Button onClick={() => navigate(LOGIN_PAGE)}>Go to Login</Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/** While the user and the dashboard load: the page's shape, so nothing jumps when they arrive. */
function LoadingState() {
  return (
    <div className="clipit-dash-page clipit-dash-page--dashboard" aria-busy="true">
      <p role="status" className="clipit-dash-loading">
        Loading dashboard...
      </p>
      <div className="clipit-dash-welcome">
        <Skeleton shape="circle" className="clipit-dash-avatar" />
        <div className="clipit-dash-welcome__text">
          <Skeleton shape="text" className="clipit-dash-skeleton-title" />
          <Skeleton shape="text" className="clipit-dash-skeleton-line" />
        </div>
      </div>
      <div className="clipit-dash-grid clipit-dash-grid--4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="clipit-dash-skeleton-card" />
        ))}
      </div>
      <div className="clipit-dash-grid clipit-dash-grid--2">
        <Skeleton className="clipit-dash-skeleton-panel" />
        <Skeleton className="clipit-dash-skeleton-panel" />
      </div>
    </div>
  );
}

/** The clipper dashboard (spec 02 §2.2) for a signed-in user and their dashboard answer. */
function ClipperDashboard({ user, dashboard }: { user: CurrentUser; dashboard: Dashboard }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'submissions';
  const pendingHires = usePendingHireCount();

  const selectTab = (value: string) => {
    // Leaving the form: a clip sent there belongs in the recent submissions.
    if (tab === 'submit' && value !== 'submit') void queryClient.invalidateQueries({ queryKey: dashboardKey });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'submissions') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="clipit-dash-page clipit-dash-page--dashboard">
      <DashboardHeader dashboard={dashboard} />
      <VerifyEmailBanner user={user} />
      <StatCards metrics={dashboard.metrics} />
      <div className="clipit-dash-grid clipit-dash-grid--2">
        <TierProgressCard progress={dashboard.tierProgress} />
        <PointsCard userId={dashboard.user.id} />
      </div>
      <HowPointsWork />
      <Tabs value={tab} onValueChange={selectTab} className="clipit-dash-tabs">
        <TabsList aria-label="Dashboard sections">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
              {t.value === 'hires' && pendingHires ? (
                <>
                  {' '}
                  <Badge variant="warning" className="clipit-dash-tab-count">
                    {pendingHires}
                  </Badge>
                  <span className="clip-sr-only"> pending</span>
                </>
              ) : null}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="submissions">
          <SubmissionsTab submissions={dashboard.recentSubmissions} onSubmitClip={() => selectTab('submit')} />
        </TabsContent>
        <TabsContent value="submit">
          <SubmitClipTab />
        </TabsContent>
        <TabsContent value="earnings">
          <EarningsTab summary={dashboard.earningsSummary} hold={dashboard.payoutHold} />
        </TabsContent>
        <TabsContent value="profile">
          <div className="clipit-dash-stack clipit-dash-stack--wide">
            <ProfileTab user={dashboard.user} />
            <div className="clipit-dash-grid clipit-dash-grid--2">
              <WalletCard user={user} />
              <SessionsCard />
            </div>
            <ApiKeysCard />
            <WebhooksCard />
            <HiringProfileSection userId={dashboard.user.id} />
          </div>
        </TabsContent>
        <TabsContent value="hires">
          <HireRequestsTab userId={dashboard.user.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** The clipper dashboard once its answer is in: skeletons while it loads, the error otherwise. */
function ClipperDashboardFromQuery({ user, dashboard }: { user: CurrentUser; dashboard: UseQueryResult<Dashboard> }) {
  // The session ended between the two reads: the dashboard says so rather than a bare 401.
  if (dashboard.error instanceof HttpError && dashboard.error.status === 401)
    return <ErrorState>Please sign in to access your dashboard.</ErrorState>;
  if (dashboard.isPending) return <LoadingState />;
  if (dashboard.isError) return <ErrorState>Error: {dashboard.error.message}</ErrorState>;
  return <ClipperDashboard user={user} dashboard={dashboard.data} />;
}

/**
 * Which dashboard a signed-in user sees, by role (spec 02 §2.3, §6): the one place this is decided. A
 * streamer sees the streamer dashboard (it reads the user, not /api/dashboard); anyone else the clipper's.
 */
function DashboardFor({ user, dashboard }: { user: CurrentUser; dashboard: UseQueryResult<Dashboard> }) {
  switch (user.role) {
    case 'streamer':
      return <StreamerDashboard user={user} />;
    default:
      return <ClipperDashboardFromQuery user={user} dashboard={dashboard} />;
  }
}

/** No session: on to the login page (spec 02 §2.3), the dashboard's address left out of the history. */
function RedirectToLogin() {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(LOGIN_PAGE, { replace: true });
  }, [navigate]);
  return <LoadingState />;
}

/**
 * /clippers/dashboard (spec 02 §2.2, §2.3): the signed-in user first (no session: redirected to /login),
 * the dashboard answer beside it (both are the page's first reads, so they are asked for together), then
 * the dashboard the user's role calls for.
 */
export default function ClipperDashboardPage() {
  const currentUser = useCurrentUser();
  const dashboard = useQuery<Dashboard>({ queryKey: dashboardKey });

  if (currentUser.isPending) return <LoadingState />;
  if (currentUser.isError) return <ErrorState>Error: {currentUser.error.message}</ErrorState>;
  if (!currentUser.user) return <RedirectToLogin />;
  return <DashboardFor user={currentUser.user} dashboard={dashboard} />;
}
