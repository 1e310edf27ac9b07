import { Badge, cn } from '@clipit/ui';
import type { Dashboard } from '../lib/dashboard-data.js';
import { formatClip } from '../lib/dashboard-data.js';
import { LOGOUT_HREF } from '../lib/navigation.js';
import { tierOfLevel } from '../lib/tiers.js';

/** The name a person is greeted by: their display name, else their handle. */
export function nameOf(user: Pick<Dashboard['user'], 'displayName' | 'twitterUsername'>, fallback = 'Clipper'): string {
  return user.displayName?.trim() || (user.twitterUsername ? `@${user.twitterUsername}` : fallback);
}

/** A person's picture, or the first letter of their name on the brand colour. */
export function Avatar({
  user,
  size = 72,
}: {
  user: Pick<Dashboard['user'], 'displayName' | 'twitterUsername' | 'profileImageUrl'>;
  size?: 48 | 72;
}) {
  const name = nameOf(user);
  return user.profileImageUrl ? (
    <img
      className={cn('clipit-dash-avatar', size === 48 && 'clipit-dash-avatar--sm')}
      src={user.profileImageUrl}
      alt={`${name}'s profile picture`}
      width={size}
      height={size}
    />
  ) : (
    <span className={cn('clipit-dash-avatar', 'clipit-dash-avatar--initial', size === 48 && 'clipit-dash-avatar--sm')} aria-hidden="true">
      {name.replace(/^@/, '').charAt(0).toUpperCase() || '?'}
    </span>
  );
}

/** Welcome header (spec 02 §2.2): avatar, name, tier badge, rate per clip, Logout. */
export function DashboardHeader({ dashboard }: { dashboard: Dashboard }) {
  const { user, tierProgress } = dashboard;
  const tier = tierOfLevel(user.currentTier);
  return (
    <section
      aria-labelledby="dashboard-title"
      className="clipit-dash-welcome"
      style={
        user.bannerImageUrl
          ? {
              backgroundImage: `linear-gradient(var(--clipit-dash-banner-veil), var(--clipit-dash-banner-veil)), url("${encodeURI(user.bannerImageUrl)}")`,
            }
          : undefined
      }
    >
      <Avatar user={user} />
      <div className="clipit-dash-welcome__text">
        <h1 id="dashboard-title">Welcome back, {nameOf(user)}!</h1>
        {user.twitterUsername ? <p className="clipit-dash-muted">@{user.twitterUsername}</p> : null}
        <div className="clipit-dash-welcome__tier">
          <Badge variant="primary" className={`clipit-dash-tier-badge clipit-dash-tier-badge--${tier.toLowerCase()}`}>
            {tier} Tier
          </Badge>
          <span>{formatClip(tierProgress.currentTier.ratePerClip)} per clip</span>
        </div>
      </div>
      {/* A full-page navigation: the gateway ends the session and redirects (spec 02 §2.1). */}
      <a href={LOGOUT_HREF} className="clip-btn clip-btn--outline clip-btn--md clipit-dash-welcome__logout">
        Logout
      </a>
    </section>
  );
}
