import { cn, type ClassValue } from '@clipit/ui';
import { NavLink } from '@clipit/router';
import { LOGIN_LINK, LOGOUT_HREF } from '../nav/navigation.js';

/**
 * Logout (a plain link: the gateway ends the session with a full-page navigation) when signed in,
 * Login when signed out, nothing while the current-user call is still out (no flash of Login).
 */
export function AccountLink({
  signedIn,
  pending,
  className,
  onNavigate,
}: {
  signedIn: boolean;
  pending: boolean;
  className?: ClassValue;
  onNavigate?: () => void;
}) {
  if (pending) return null;
  return signedIn ? (
    <a href={LOGOUT_HREF} className={cn('clip-btn clip-btn--outline clip-btn--sm', className)}>
      Logout
    </a>
  ) : (
    <NavLink to={LOGIN_LINK.to} className={cn('clip-btn clip-btn--primary clip-btn--sm', className)} onClick={onNavigate}>
      {LOGIN_LINK.label}
    </NavLink>
  );
}
