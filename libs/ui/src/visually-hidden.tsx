import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

/** Content for screen readers only (still in the accessibility tree, not on screen). */
export const VisuallyHidden = forwardRef<HTMLSpanElement, HTMLAttributes<HTMLSpanElement>>(function VisuallyHidden(
  { className, ...props },
  ref,
) {
  return <span ref={ref} className={cn('clip-sr-only', className)} {...props} />;
});
