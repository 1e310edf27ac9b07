// The clipper tiers and the three steps the clipper landing page shows (spec 02 §2.1).
export type TierName = 'Bronze' | 'Silver' | 'Gold' | 'Diamond';

interface Tier {
  level: number;
  name: TierName;
  summary: string;
}

export const TIERS: readonly Tier[] = [
  { level: 1, name: 'Bronze', summary: 'New clippers' },
  { level: 2, name: 'Silver', summary: 'Consistent performers' },
  { level: 3, name: 'Gold', summary: 'High-quality creators' },
  { level: 4, name: 'Diamond', summary: 'Elite viral content' },
];

/** Spec 02 §4: the user tier 1 to 4 is Bronze, Silver, Gold, Diamond (out of range: the nearest end). */
export function tierOfLevel(level: number): TierName {
  const index = Math.min(TIERS.length, Math.max(1, Math.round(level))) - 1;
  return TIERS[index]!.name;
}

export const HOW_IT_WORKS = [
  { title: 'Create Clips', text: 'Cut short, branded clips from live streams and memes, and post them on X.' },
  { title: 'Get Approved', text: 'Submit your posts; our team reviews every clip before it counts.' },
  { title: 'Earn & Level Up', text: 'Earn $CLIP for approved clips and climb from Bronze to Diamond.' },
] as const;
