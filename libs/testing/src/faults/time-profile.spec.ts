import { describe, expect, it } from '@jest/globals';
import { outlastedBudgets, timeProfile } from './time-profile.js';

describe('the fault suite time profiles', () => {
  it('compressed: a short outage stays within every budget, a long one outlasts every one', () => {
    const p = timeProfile('compressed');
    for (const b of p.outlasted) {
      expect({ budget: b.name, shortWithin: p.shortOutageSeconds * 1000 < b.ms, longOutlasts: p.longOutageSeconds * 1000 > b.ms }).toEqual({
        budget: b.name,
        shortWithin: true,
        longOutlasts: true,
      });
    }
    // A fraction of the real-time long outage, or the suite would not be faster.
    expect(p.longOutageSeconds).toBeLessThanOrEqual(15);
  });

  it("real-time: the production budgets (no bus or worker override) with today's 5 s and 60 s outages", () => {
    const p = timeProfile('real-time');
    expect([p.shortOutageSeconds, p.longOutageSeconds]).toEqual([5, 60]);
    expect(Object.keys(p.env).filter((k) => k.startsWith('BUS_') || k.includes('_LOCK_') || k.includes('_STALLED_'))).toEqual([]);
    for (const b of p.outlasted)
      expect({ budget: b.name, longOutlasts: p.longOutageSeconds * 1000 >= b.ms }).toEqual({ budget: b.name, longOutlasts: true });
  });

  it('derives the long outage from the budgets: a longer budget makes it longer', () => {
    const realTime = timeProfile('real-time').env;
    const longest = Math.max(...outlastedBudgets({ ...realTime, BUS_ACK_WAIT_MS: '45000' }).map((b) => b.ms));
    expect(longest).toBe(60_000); // the production lock + stalled check is still the longest
    expect(Math.max(...outlastedBudgets({ ...realTime, BUS_ACK_WAIT_MS: '90000' }).map((b) => b.ms))).toBe(90_000);
  });

  it('refuses an unknown profile', () => {
    expect(() => timeProfile('fast')).toThrow('FAULT_PROFILE=fast');
  });
});
