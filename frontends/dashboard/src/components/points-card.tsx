import { Badge, Button, Card, CardContent, CardHeader, CardTitle, formatDate, Skeleton, useToast } from '@clipit/ui';
import { apiJson } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { clipperStatsKey, dashboardKey, formatCount, type ClipperStats } from '../lib/dashboard-data.js';
import { useCountUp } from '../lib/use-count-up.js';

const POINTS_TIER_NAMES: Record<ClipperStats['tier'], string> = { bronze: 'Bronze', silver: 'Silver', gold: 'Gold' };

/** The counter (spec 02 §2.2): animated for the eye; screen readers get the number itself, once. */
function PointsCounter({ points }: { points: number }) {
  const shown = useCountUp(points);
  return (
    <p className="clipit-dash-points">
      <span aria-hidden="true" data-testid="points-counter">
        {shown.toLocaleString('en-US')}
      </span>
      <span className="clip-sr-only">{points.toLocaleString('en-US')}</span> <span className="clipit-dash-points__unit">Clip Points</span>
    </p>
  );
}

function Breakdown({ breakdown }: { breakdown: ClipperStats['breakdown'] }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const points = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const rows: [string, string][] = [
    ['Approved clips', formatCount(breakdown.approvedCount)],
    ['Approval ratio', `${Math.round(breakdown.approvalRatio * 100)}%`],
    ['Base points (10 × approved × ratio)', points(breakdown.basePoints)],
    ['View bonus (views ÷ 10)', points(breakdown.viewBonusPoints)],
    ['Inactivity penalty', breakdown.inactivityPenalty ? 'Yes: halved (no approved clip in 2 weeks)' : 'None'],
    ['Final points', points(breakdown.finalPoints)],
  ];
  return (
    <div className="clipit-dash-breakdown">
      <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide point breakdown' : 'Show point breakdown'}
      </Button>
      <div id={panelId} hidden={!open}>
        {open ? (
          <dl className="clipit-dash-breakdown__list">
            {rows.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Points and tier (spec 02 §2.2, §6, §8): the clip points counter, the points tier, the rank, the locked
 * features, the breakdown and Refresh Points.
 */
export function PointsCard({ userId }: { userId: string }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const stats = useQuery<ClipperStats>({ queryKey: clipperStatsKey(userId) });
  const refresh = useMutation({
    mutationFn: () => apiJson<ClipperStats>('POST', '/api/clipper/refresh-points'),
    onSuccess: (fresh) => {
      queryClient.setQueryData(clipperStatsKey(userId), fresh);
      // The recomputation may have raised the user tier as well.
      void queryClient.invalidateQueries({ queryKey: dashboardKey });
      toast({ title: 'Points Refreshed!', description: `Updated to ${fresh.points.toLocaleString('en-US')} points`, variant: 'success' });
    },
    onError: (error: Error) => toast({ title: 'Failed to refresh points', description: error.message, variant: 'destructive' }),
  });

  return (
    <Card className="clipit-dash-points-card" aria-busy={stats.isPending || undefined}>
      <CardHeader>
        <CardTitle level={2}>Clip Points</CardTitle>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        {stats.isPending ? (
          <div className="clipit-dash-stack">
            <Skeleton className="clipit-dash-skeleton-points" />
            <Skeleton shape="text" />
            <Skeleton shape="text" />
          </div>
        ) : stats.isError ? (
          <p role="alert">Clip points are unavailable right now. Error: {stats.error.message}</p>
        ) : (
          <>
            <div className="clipit-dash-points-row">
              <PointsCounter points={stats.data.points} />
              <Badge variant="primary" className={`clipit-dash-tier-badge clipit-dash-tier-badge--${stats.data.tier}`}>
                {POINTS_TIER_NAMES[stats.data.tier]} Clipper
              </Badge>
            </div>
            <p className="clipit-dash-rank">
              Rank <strong>#{stats.data.rank}</strong> of {stats.data.totalClippers.toLocaleString('en-US')}{' '}
              {stats.data.totalClippers === 1 ? 'clipper' : 'clippers'}
            </p>
            {stats.data.lockedFeatures.length === 0 ? (
              <p className="clipit-dash-note clipit-dash-note--success">All Features Unlocked!</p>
            ) : (
              <div>
                <h3 className="clipit-dash-subtitle">Locked Features</h3>
                <ul className="clipit-dash-bullets" aria-label="Locked features">
                  {stats.data.lockedFeatures.map((feature) => (
                    <li key={feature}>{feature}</li>
                  ))}
                </ul>
              </div>
            )}
            <Breakdown breakdown={stats.data.breakdown} />
            {stats.data.lastUpdated ? <p className="clipit-dash-muted">Last updated {formatDate(stats.data.lastUpdated)}</p> : null}
          </>
        )}
        <div>
          <Button variant="secondary" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
            {refresh.isPending ? 'Refreshing...' : 'Refresh Points'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
