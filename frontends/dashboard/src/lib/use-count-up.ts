import { prefersReducedMotion } from '@clipit/ui';
import { useEffect, useRef, useState } from 'react';

/** Spec 02 §2.2: the points counter runs for 1.5 s in 60 steps. */
export const COUNT_UP_DURATION_MS = 1500;
export const COUNT_UP_STEPS = 60;

/**
 * A number that counts up (or down) to `target` from where it last stood (0 at first) in
 * COUNT_UP_STEPS equal steps over COUNT_UP_DURATION_MS, ending exactly on the target. Under
 * prefers-reduced-motion it shows the target at once.
 */
export function useCountUp(target: number): number {
  const [shown, setShown] = useState(() => (prefersReducedMotion() ? target : 0));
  const shownRef = useRef(shown);
  shownRef.current = shown;

  useEffect(() => {
    const from = shownRef.current;
    if (from === target) return;
    if (prefersReducedMotion()) {
      setShown(target);
      return;
    }
    let step = 0;
    const timer = setInterval(() => {
      step += 1;
      if (step >= COUNT_UP_STEPS) {
        clearInterval(timer);
        setShown(target);
      } else {
        setShown(Math.round(from + ((target - from) * step) / COUNT_UP_STEPS));
      }
    }, COUNT_UP_DURATION_MS / COUNT_UP_STEPS);
    return () => clearInterval(timer);
  }, [target]);

  return shown;
}
