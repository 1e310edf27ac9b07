// The clipper tiers and the three steps the clipper landing page shows (spec 02 §2.1).
interface Tier {
  level: number;
  name: 'Bronze' | 'Silver' | 'Gold' | 'Diamond';
  summary: string;
}

export const TIERS: readonly Tier[] = [
  { level: 1, name: 'Bronze', summary: 'New clippers' },
  { level: 2, name: 'Silver', summary: 'Consistent performers' },
  { level: 3, name: 'Gold', summary: 'High-quality creators' },
  { level: 4, name: 'Diamond', summary: 'Elite viral content' },
];

export const HOW_IT_WORKS = [
  { title: 'Create Clips', text: 'Cut short, branded clips from live streams and memes, and post them on X.' },
  { title: 'Get Approved', text: 'Submit your posts; our team reviews every clip before it counts.' },
  { title: 'Earn & Level Up', text: 'Earn $CLIP for approved clips and climb from Bronze to Diamond.' },
] as const;
