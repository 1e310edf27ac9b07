import { cn } from '@clipit/ui';
import { initialOf, type NamedPerson } from '../lib/people.js';

/**
 * A person's picture, or their initial on a disc; decorative (the name is next to it). `size` is the
 * picture's intrinsic size; the stylesheet sets the shown size through `className`.
 */
export function LeaderboardAvatar({
  person,
  size,
  className,
}: {
  person: (NamedPerson & { profileImageUrl?: string | null }) | null;
  size: number;
  className: string;
}) {
  if (person?.profileImageUrl) {
    return (
      <img
        className={cn('clipit-leaderboard-avatar', className)}
        src={person.profileImageUrl}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return (
    <span className={cn('clipit-leaderboard-avatar', className)} aria-hidden="true">
      {initialOf(person)}
    </span>
  );
}
