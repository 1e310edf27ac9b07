/**
 * What tells a copy from a look-alike, for pictures and sound alike: a copy's matches follow the original in
 * order, along one line (position in the copy → position in the original) that a trim shifts and a speed
 * change tilts. Unrelated clips can share a few look-alike moments (a smooth gradient, a plain background, a
 * common chord), but those land at scattered places.
 */

/** A match: position `at` in one clip (a sampled frame, a window of sound) found at `offset` in the other. */
export interface Match {
  at: number;
  offset: number;
}

/**
 * The positions whose matches lie on one line, as many as any line holds, in order: offset = rate × at + shift,
 * within `tolerance` either way, for a rate within `maxDrift` of 1 (a speed change of that much) and any shift
 * (a trim). A position with several matches on the line (a held shot matches several frames) counts once.
 *
 * Rates are tried on a grid fine enough that the line strays at most tolerance/2 over the positions' span;
 * for each, the shifts the matches imply are sorted and the window of 2 × tolerance holding the most positions
 * is found. A line, not a chain of steps each within tolerance of the last: small steps would add up to any
 * drift at all, and unrelated matches would string together.
 */
export function alongOneLine(matches: readonly Match[], maxDrift: number, tolerance: number): number[] {
  if (matches.length === 0) return [];
  const ats = matches.map((m) => m.at);
  const span = Math.max(1, Math.max(...ats) - Math.min(...ats));
  const step = tolerance / span;
  const steps = Math.ceil(maxDrift / step);
  let best: { from: number; to: number; count: number; shifted: Array<{ at: number; shift: number }> } | undefined;
  for (let s = -steps; s <= steps; s += 1) {
    const rate = 1 + Math.max(-maxDrift, Math.min(maxDrift, s * step));
    const shifted = matches.map((m) => ({ at: m.at, shift: m.offset - rate * m.at })).sort((a, b) => a.shift - b.shift);
    // Sliding window over the shifts, counting distinct positions inside.
    const inside = new Map<number, number>();
    let start = 0;
    shifted.forEach((m, end) => {
      inside.set(m.at, (inside.get(m.at) ?? 0) + 1);
      while (m.shift - shifted[start]!.shift > 2 * tolerance) {
        const left = shifted[start]!.at;
        const count = inside.get(left)! - 1;
        if (count) inside.set(left, count);
        else inside.delete(left);
        start += 1;
      }
      if (!best || inside.size > best.count) best = { from: start, to: end, count: inside.size, shifted };
    });
  }
  return best ? [...new Set(best.shifted.slice(best.from, best.to + 1).map((m) => m.at))].sort((a, b) => a - b) : [];
}
