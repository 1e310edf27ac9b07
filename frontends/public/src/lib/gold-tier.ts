// Who shows a 'Hire Clipper' button (spec 02 §2.7, §6; ADR 0027): a clipper at the gold tier. Kept apart
// from the hire dialog so the feed's first render carries this test and not the dialog.

/** User tiers (spec 02 §4): 1 Bronze, 2 Silver, 3 Gold, 4 Diamond. Gold and above can be hired. */
export const GOLD_TIER = 3;

export interface TieredPerson {
  currentTier?: number | null;
  /** When known (the clipper profile), only a clipper is hired; a feed clip's author is one. */
  role?: string | null;
}

/** True for a clipper whose tier is Gold or Diamond; false without a tier, or for another role. */
export function isGoldClipper(person: TieredPerson | null | undefined): boolean {
  if (!person) return false;
  if (person.role !== undefined && person.role !== null && person.role !== 'clipper') return false;
  const tier = person.currentTier;
  return typeof tier === 'number' && tier >= GOLD_TIER;
}
