// How a person is named on the public screens (spec 01 §2, clipper profile): the display name, else
// first and last name, else the handle. Empty or blank parts count as absent.

export interface NamedPerson {
  displayName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  twitterUsername?: string | null;
}

const present = (value: string | null | undefined): string => (typeof value === 'string' ? value.trim() : '');

/** The name to show for a person; '' when nothing names them (the caller says 'Anonymous' or the like). */
export function displayNameOf(person: NamedPerson | null | undefined): string {
  if (!person) return '';
  const display = present(person.displayName);
  if (display) return display;
  const full = [present(person.firstName), present(person.lastName)].filter(Boolean).join(' ');
  if (full) return full;
  return present(person.twitterUsername);
}

/** '@handle', or '' without one. */
export function handleOf(person: Pick<NamedPerson, 'twitterUsername'> | null | undefined): string {
  const handle = present(person?.twitterUsername);
  return handle ? `@${handle}` : '';
}

/** The letter an avatar without a picture shows. */
export function initialOf(person: NamedPerson | null | undefined): string {
  return (displayNameOf(person).replace(/^@/, '')[0] ?? '?').toUpperCase();
}
