import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@clipit/ui';
import { useId } from 'react';
import { formatClip, formatCount, type Dashboard } from '../lib/dashboard-data.js';

/** '85%', '85.5%': a percentage 0 to 100 with at most one decimal. */
export function formatPercent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}

function StatCard({ title, value, note }: { title: string; value: string; note: string }) {
  return (
    <li>
      <Card className="clipit-dash-stat">
        <CardHeader>
          <CardTitle level={3} className="clipit-dash-stat__title">
            {title}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <p className="clipit-dash-stat__value">{value}</p>
          <p className="clipit-dash-muted">{note}</p>
        </CardContent>
      </Card>
    </li>
  );
}

/** Stat cards (spec 02 §2.2): Approved Clips with the 4-week window, Approval Rate, Avg Views, This Week (7 days). */
export function StatCards({ metrics }: { metrics: Dashboard['metrics'] }) {
  return (
    <section aria-labelledby="dash-stats-title">
      <h2 id="dash-stats-title" className="clip-sr-only">
        Your numbers
      </h2>
      <ul className="clipit-dash-grid clipit-dash-grid--4">
        <StatCard
          title="Approved Clips"
          value={formatCount(metrics.totalApproved)}
          note={`${formatCount(metrics.approvedInWindow)} in the last ${metrics.windowWeeks} weeks`}
        />
        <StatCard title="Approval Rate" value={formatPercent(metrics.approvalRate)} note="Approved of your reviewed clips" />
        <StatCard title="Avg Views" value={formatCount(metrics.avgViews)} note="Per approved clip" />
        <StatCard title="This Week" value={formatCount(metrics.approvedThisWeek)} note="Approved in the last 7 days" />
      </ul>
    </section>
  );
}

/** Tier Progress (spec 02 §2.2, ADR 0025): how far toward the next tier, what is still missing. */
export function TierProgressCard({ progress }: { progress: Dashboard['tierProgress'] }) {
  const labelId = useId();
  const { currentTier, nextTier } = progress;
  const percent = Math.max(0, Math.min(100, Math.round(progress.progressPercent)));
  return (
    <Card className="clipit-dash-tier-progress">
      <CardHeader>
        <CardTitle level={2}>Tier Progress</CardTitle>
        <CardDescription>
          {currentTier.name}: {formatClip(currentTier.ratePerClip)} per clip
        </CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        {nextTier ? (
          <>
            <div className="clipit-dash-progress-row">
              <span id={labelId}>Progress to {nextTier.name}</span>
              <span aria-hidden="true">{percent}%</span>
            </div>
            <div
              className="clipit-dash-progress"
              role="progressbar"
              aria-labelledby={labelId}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${percent}%`}
            >
              <div className="clipit-dash-progress__bar" style={{ width: `${percent}%` }} />
            </div>
            <p>
              Next tier: <strong>{nextTier.name}</strong>, {formatClip(nextTier.ratePerClip)} per clip
            </p>
            {progress.meetsNextTierRequirements ? (
              <p className="clipit-dash-note clipit-dash-note--success">
                You meet the requirements for {nextTier.name}! Your tier goes up with your next approval or points refresh.
              </p>
            ) : progress.missingRequirements.length > 0 ? (
              <div>
                <h3 className="clipit-dash-subtitle">Still needed for {nextTier.name}</h3>
                <ul className="clipit-dash-bullets" aria-label={`Missing requirements for ${nextTier.name}`}>
                  {progress.missingRequirements.map((requirement) => (
                    <li key={requirement}>{requirement}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : (
          <p className="clipit-dash-note clipit-dash-note--success">You have reached the top tier: {currentTier.name}. Keep clipping!</p>
        )}
      </CardContent>
    </Card>
  );
}

/** 'How Clip Points Work' (spec 02 §2.2, §6, §9). */
export function HowPointsWork() {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>How Clip Points Work</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="clipit-dash-bullets">
          <li>
            <strong>10 base points</strong> for every approved clip, multiplied by your approval ratio.
          </li>
          <li>
            <strong>View bonus:</strong> your approved clips' total views divided by 10.
          </li>
          <li>
            <strong>Inactivity penalty:</strong> your points are halved (50%) after 2 weeks without an approved clip.
          </li>
          <li>
            <strong>Silver</strong> unlocks streamer multipliers: 1.1x to 2x bonus points on clips tagged with a streamer, by their follower
            count.
            <strong> Gold</strong> unlocks paid campaigns and the Hire button.
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}
