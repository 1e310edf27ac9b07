const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid in the canonical lowercase form, or undefined. */
export function uuidOrUndefined(raw: string | undefined | null): string | undefined {
  const value = (raw ?? '').trim();
  return UUID.test(value) ? value.toLowerCase() : undefined;
}
