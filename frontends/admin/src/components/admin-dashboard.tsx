import { Badge, Button, Tabs, TabsContent, TabsList, TabsTrigger } from '@clipit/ui';
import { useAdminSession } from '../lib/admin-context.js';
import { useApplications, useCampaigns, usePlaceholders, useSubmissions } from '../lib/queries.js';
import { AppealsTab } from './appeals-tab.js';
import { ApplicationsTab } from './applications-tab.js';
import { CampaignsTab } from './campaigns-tab.js';
import { PlaceholdersTab } from './placeholders-tab.js';
import { SubmissionsTab } from './submissions-tab.js';
import { SystemTab } from './system-tab.js';

const count = (value: number | undefined) => (value === undefined ? '–' : value.toLocaleString('en-US'));

/** The unlocked admin area (spec 02 §2.4): the header figures and the tabs, each with its count. */
export function AdminDashboard() {
  const { lock } = useAdminSession();
  const submissions = useSubmissions();
  const applications = useApplications();
  const placeholders = usePlaceholders();
  const campaigns = useCampaigns();
  const first = submissions.data?.pages[0];

  return (
    <div className="clipit-admin-page">
      <header className="clipit-admin-header">
        <div>
          <h1 className="clipit-admin-title">Admin Dashboard</h1>
          <p className="clipit-admin-muted">
            Moderate post submissions, read job applications, review CPM campaigns and create placeholder streamers.
          </p>
        </div>
        <Button variant="outline" onClick={lock}>
          Lock
        </Button>
      </header>

      <section aria-label="Submission figures">
        <dl className="clipit-admin-stats">
          <div className="clip-card clipit-admin-stat">
            <dt>Total Submissions</dt>
            <dd>{count(first?.total)}</dd>
          </div>
          <div className="clip-card clipit-admin-stat">
            <dt>Last 7 Days</dt>
            <dd>{count(first?.createdLast7Days)}</dd>
          </div>
        </dl>
      </section>

      <Tabs defaultValue="submissions" className="clipit-admin-tabs">
        <TabsList aria-label="Admin sections" className="clipit-admin-tabs__list">
          <TabsTrigger value="submissions">
            Post Submissions <Badge variant="secondary">{count(first?.total)}</Badge>
          </TabsTrigger>
          <TabsTrigger value="applications">
            Job Applications <Badge variant="secondary">{count(applications.data?.pages[0]?.total)}</Badge>
          </TabsTrigger>
          <TabsTrigger value="campaigns">
            Campaigns <Badge variant="secondary">{count(campaigns.data?.pages[0]?.total)}</Badge>
          </TabsTrigger>
          <TabsTrigger value="placeholders">
            Placeholder Streamers <Badge variant="secondary">{count(placeholders.data?.length)}</Badge>
          </TabsTrigger>
          <TabsTrigger value="appeals">Appeals</TabsTrigger>
          <TabsTrigger value="system">System</TabsTrigger>
        </TabsList>
        <TabsContent value="submissions">
          <SubmissionsTab />
        </TabsContent>
        <TabsContent value="applications">
          <ApplicationsTab />
        </TabsContent>
        <TabsContent value="campaigns">
          <CampaignsTab />
        </TabsContent>
        <TabsContent value="placeholders">
          <PlaceholdersTab />
        </TabsContent>
        <TabsContent value="appeals">
          <AppealsTab />
        </TabsContent>
        <TabsContent value="system">
          <SystemTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
