import { abbreviateNumber, Card, Skeleton, VisuallyHidden } from '@clipit/ui';
import type { ApiAnswer } from '@clipit/web-api';
import type { ReactNode } from 'react';
import { Link } from '@clipit/router';
import { FollowButton } from './follow-button.js';
import '../styles/discover.css';

export type Creator = ApiAnswer<'/api/creators/{tab}', 'get'>[number];
export type CreatorKind = 'clippers' | 'streamers';

function VerifiedMark() {
  return (
    <svg className="clipit-discover-verified" role="img" aria-label="Verified" viewBox="0 0 24 24" width="16" height="16">
      <path
        fill="currentColor"
        d="M12 1l3 2.6 4-.4.9 3.9 3.4 2.1-1.6 3.7 1.6 3.7-3.4 2.1-.9 3.9-4-.4L12 23l-3-2.6-4 .4-.9-3.9-3.4-2.1L2.3 11 .7 7.3l3.4-2.1.9-3.9 4 .4z"
      />
      <path
        fill="none"
        stroke="var(--clip-color-primary-foreground)"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M7.5 12.2l3 3 6-6.2"
      />
    </svg>
  );
}

/**
 * Clip Points are null until the rewards service reports them (ADR 0022): a dash says "not known yet"
 * rather than claiming a score of 0.
 */
function Points({ value }: { value: number | null | undefined }) {
  if (value === null || value === undefined) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <VisuallyHidden>not yet reported</VisuallyHidden>
      </>
    );
  }
  return <>{abbreviateNumber(value)}</>;
}

/** The figures a card shows: Clip Points only for clippers. */
const FIGURES = ['Followers', 'Clips', 'Views', 'Avg Views'];
const labelsOf = (kind: CreatorKind) => (kind === 'clippers' ? [...FIGURES, 'Clip Points'] : FIGURES);

/** One creator on the discover page (spec 01 §2, §3): the head links to their profile. */
export function CreatorCard({ creator, kind }: { creator: Creator; kind: CreatorKind }) {
  const handle = creator.twitterUsername ?? '';
  const profile = `/clipper/${creator.userId}`;
  const stats: Array<[string, ReactNode]> = [
    ['Followers', abbreviateNumber(creator.followers)],
    ['Clips', abbreviateNumber(creator.totalClips)],
    ['Views', abbreviateNumber(creator.totalViews)],
    ['Avg Views', abbreviateNumber(creator.avgViews)],
  ];
  if (kind === 'clippers') stats.push(['Clip Points', <Points key="points" value={creator.clipPoints} />]);
  return (
    <Card className="clipit-discover-card" data-testid="creator-card">
      <Link to={profile} className="clipit-discover-card__head">
        {creator.profileImageUrl ? (
          <img
            className="clipit-discover-avatar"
            src={creator.profileImageUrl}
            alt=""
            width={56}
            height={56}
            loading="lazy"
            decoding="async"
          />
        ) : (
          <span className="clipit-discover-avatar" aria-hidden="true">
            {(handle[0] ?? '?').toUpperCase()}
          </span>
        )}
        <span className="clipit-discover-card__name">
          <span className="clipit-discover-card__handle">{handle ? `@${handle}` : 'Anonymous'}</span>
          {creator.verified ? <VerifiedMark /> : null}
        </span>
      </Link>
      <dl className={`clipit-discover-stats clipit-discover-stats--${kind}`}>
        {stats.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="clipit-discover-card__action">
        {kind === 'streamers' ? (
          <FollowButton userId={creator.userId} block />
        ) : (
          <Link to={profile} className="clip-btn clip-btn--outline clip-btn--sm clip-btn--block">
            View Profile
          </Link>
        )}
      </div>
    </Card>
  );
}

/** A card's placeholder while the list loads: the same boxes, so nothing moves when it arrives. */
export function CreatorCardSkeleton({ kind }: { kind: CreatorKind }) {
  return (
    <Card className="clipit-discover-card" data-testid="creator-skeleton" aria-hidden="true">
      <div className="clipit-discover-card__head">
        <Skeleton shape="circle" className="clipit-discover-avatar" />
        <Skeleton shape="text" className="clipit-discover-skeleton-line" />
      </div>
      <dl className={`clipit-discover-stats clipit-discover-stats--${kind}`}>
        {labelsOf(kind).map((label) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <Skeleton shape="text" className="clipit-discover-skeleton-value" />
            </dd>
          </div>
        ))}
      </dl>
      <div className="clipit-discover-card__action">
        <Skeleton className="clipit-discover-skeleton-button" />
      </div>
    </Card>
  );
}
