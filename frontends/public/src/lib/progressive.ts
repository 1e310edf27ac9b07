import { startTransition, useEffect, useState } from 'react';

/** How many items of a long list render with the page; the rest follow in a transition. */
export const FIRST_ITEMS = 12;

/**
 * How many of `total` items to render now: the first FIRST_ITEMS with the page, then all of them in a
 * transition (React renders it in slices between frames and input), so a list of a hundred cards never
 * holds the main thread in one long task on a phone. A list no longer than that renders whole at once.
 */
export function useProgressiveCount(total: number, first = FIRST_ITEMS): number {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (all || total <= first) return undefined;
    // After the first items have painted.
    const frame = requestAnimationFrame(() => startTransition(() => setAll(true)));
    return () => cancelAnimationFrame(frame);
  }, [all, total, first]);
  return all ? total : Math.min(total, first);
}
