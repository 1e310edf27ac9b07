import { Button, Skeleton, VisuallyHidden } from '@clipit/ui';
import type { Tier } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@clipit/router';
import '../styles/guide.css';

/** Placeholders while the tiers load: one per tier the spec names. */
const TIER_SKELETONS = 4;

/** Spec 01 §5: the rules every clip follows. */
const RULES = [
  { title: 'Watermark', text: 'Put the CLIP IT watermark in the top right corner. No other logos.' },
  { title: 'Length', text: 'Clips are at least 15 seconds long. Uploads are capped at 40 seconds.' },
  { title: 'Format', text: 'Portrait, 9:16.' },
  { title: 'Where to post', text: 'Post on Instagram, TikTok or YouTube Shorts.' },
  { title: 'No bots', text: 'No bots and no bought views, likes or followers.' },
  { title: 'Audience', text: 'Target viewers in the USA, UK, Canada, Australia and New Zealand.' },
  { title: 'Call to action', text: 'Every clip ends with a call to action.' },
  { title: 'Tag us', text: 'Tag the main CLIP IT account in every post.' },
];

/**
 * Spec 02 §9, "Tier requirements as displayed": one row per tier but the highest (Diamond), whose
 * requirements are not published. The tiers are rewards' data (GET /api/tiers, ADR 0025), so the page
 * says what the dashboard counts; the table of §9 is what that data holds (10 and 25 approved clips, not
 * the progress bar's 16 and 51).
 */
function requirementRows(tiers: readonly Tier[]) {
  return tiers.slice(0, -1).map((tier) => ({
    tier: tier.name,
    total: `${tier.minTotalApproved}+`,
    window: `${tier.minApprovedInWindow}+`,
    rate: `${Math.round(tier.minApprovalRate * 100)}%+`,
    views: `${tier.minAvgViews}+`,
  }));
}

/** The window the table's column counts in: the tiers share one (4 weeks); its words follow the data. */
function windowHeading(tiers: readonly Tier[]): string {
  const weeks = new Set(tiers.map((tier) => tier.windowWeeks));
  const only = weeks.size === 1 ? [...weeks][0]! : undefined;
  return only === undefined ? 'Approved in the window' : `Approved in last ${only} ${only === 1 ? 'week' : 'weeks'}`;
}

/** The four tiers (spec 02 §2.1: name and who it is for) and the requirement table, from GET /api/tiers. */
function TierList() {
  const query = useQuery<Tier[]>({ queryKey: ['/api/tiers'] });
  if (query.isPending)
    return (
      <div aria-busy="true" className="clipit-guide-loading">
        <VisuallyHidden role="status">Loading tiers</VisuallyHidden>
        <ul className="clipit-guide-tiers" aria-hidden="true">
          {Array.from({ length: TIER_SKELETONS }, (_, i) => (
            <li key={i} className="clipit-guide-tier">
              <Skeleton className="clipit-guide-skeleton" />
            </li>
          ))}
        </ul>
      </div>
    );
  if (query.isError)
    return (
      <div className="clipit-guide-error" role="alert">
        <p>Failed to load the tiers. Please try again.</p>
        <Button variant="outline" loading={query.isFetching} onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  const tiers = [...query.data].sort((a, b) => a.level - b.level);
  return (
    <>
      <ul className="clipit-guide-tiers">
        {tiers.map((tier) => (
          <li key={tier.level} className={`clipit-guide-tier clipit-guide-tier--${tier.name.toLowerCase()}`}>
            <h3>{tier.name}</h3>
            <p>{tier.description}</p>
          </li>
        ))}
      </ul>
      <table className="clipit-guide-table">
        <caption>Tier requirements</caption>
        <thead>
          <tr>
            <th scope="col">Tier</th>
            <th scope="col">Approved total</th>
            <th scope="col">{windowHeading(tiers)}</th>
            <th scope="col">Approval rate</th>
            <th scope="col">Average views</th>
          </tr>
        </thead>
        <tbody>
          {requirementRows(tiers).map((row) => (
            <tr key={row.tier}>
              <th scope="row">{row.tier}</th>
              <td>{row.total}</td>
              <td>{row.window}</td>
              <td>{row.rate}</td>
              <td>{row.views}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** /guide: how clipping for CLIP IT works, for clippers (spec 01 §5 rules; spec 02 §9 tiers, points and payouts). */
export default function GuidePage() {
  return (
    <div className="clipit-guide">
      <header className="clipit-guide-hero">
        <h1>How It Works</h1>
        <p className="clipit-guide-lead">
          Cut short clips from live streams and memes, post them, submit the post, and get paid in $CLIP for every approved clip.
        </p>
        <div className="clipit-guide-actions">
          <Link to="/login" className="clip-btn clip-btn--primary clip-btn--lg">
            Apply / Sign Up
          </Link>
          <Link to="/submit" className="clip-btn clip-btn--outline clip-btn--lg">
            Submit a Clip
          </Link>
        </div>
      </header>

      <section className="clipit-guide-section" aria-labelledby="guide-rules">
        <h2 id="guide-rules">Clip Rules</h2>
        <ul className="clipit-guide-rules">
          {RULES.map((rule) => (
            <li key={rule.title}>
              <h3>{rule.title}</h3>
              <p>{rule.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-tiers">
        <h2 id="guide-tiers">Tiers</h2>
        <p>
          Clippers move up through four tiers as their approved clips, approval rate and views grow. Each tier pays its own rate per
          approved clip; your dashboard shows your tier, your rate and what you still need for the next one.
        </p>
        <TierList />
        <p className="clipit-guide-note">
          Diamond is the tier above Gold; its requirements are not published. Gold clippers can be hired by viewers and streamers.
        </p>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-points">
        <h2 id="guide-points">Clip Points</h2>
        <ul className="clipit-guide-list">
          <li>10 base points for every approved clip, multiplied by your approval ratio.</li>
          <li>Plus a view bonus: your total views divided by 10.</li>
          <li>A 50% inactivity penalty applies after 2 weeks with no approved clip.</li>
          <li>Streamers carry a multiplier from 1.00x to 2.00x that gives clippers bonus points on their clips.</li>
        </ul>
        <p className="clipit-guide-note">
          Example: 20 approved clips at a 90% approval ratio with 5,000 total views: 20 × 10 × 0.9 + 5,000 ÷ 10 = 180 + 500 = 680 points.
        </p>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-payouts">
        <h2 id="guide-payouts">Payouts</h2>
        <p>
          Earnings are paid weekly, on Fridays, in $CLIP to the Solana wallet address on your profile. Keep it up to date: payments sent to
          a wrong address cannot be recovered.
        </p>
      </section>

      <section className="clipit-guide-cta" aria-labelledby="guide-start">
        <h2 id="guide-start">Ready to Clip?</h2>
        <p>Sign up as a clipper, then submit your first clip with its video.</p>
        <div className="clipit-guide-actions">
          <Link to="/login" className="clip-btn clip-btn--primary clip-btn--lg">
            Sign Up
          </Link>
          <Link to="/submit" className="clip-btn clip-btn--outline clip-btn--lg">
            Submit
          </Link>
        </div>
      </section>
    </div>
  );
}
