import { Badge } from '@clipit/ui';
import type { Dashboard } from '../lib/dashboard-data.js';
import { formatClip } from '../lib/dashboard-data.js';
import { LOGOUT_HREF } from '../lib/navigation.js';
import { tierOfLevel } from '../lib/tiers.js';

/** The name a person is greeted by: their display name, else their handle. */
export function nameOf(user: Pick<Dashboard['user'], 'displayName' | 'twitterUsername'>): string {
  return user.displayName?.trim() || (user.twitterUsername ? `@${user.twitterUsername}` : 'Clipper');
}

function Avatar({ user }: { user: Dashboard['user'] }) {
  const name = nameOf(user);
  return user.profileImageUrl ? (
    <img className="clipit-dash-avatar" src={user.profileImageUrl} alt={`${name}'s profile picture`} width={72} height={72} />
  ) : (
    <span className="clipit-dash-avatar clipit-dash-avatar--initial" aria-hidden="true">
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
      style={user.bannerImageUrl ? { backgroundImage: `linear-gradient(var(--clipit-dash-banner-veil), var(--clipit-dash-banner-veil)), url("${encodeURI(user.bannerImageUrl)}")` } : undefined}
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
