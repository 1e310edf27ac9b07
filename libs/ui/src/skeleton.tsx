import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

export interface SkeletonProps extends HTMLAttributes<HTMLDivElement> {
  /** circle for avatars; text for a line of text (1em high). */
  shape?: 'rect' | 'circle' | 'text';
}

/**
 * A placeholder block while content loads. Hidden from screen readers: mark the loading container
 * with aria-busy="true" (and announce the state, e.g. a Spinner with a label) instead. The shimmer
 * stops under prefers-reduced-motion.
 */
export const Skeleton = forwardRef<HTMLDivElement, SkeletonProps>(function Skeleton({ shape = 'rect', className, ...props }, ref) {
  return <div ref={ref} aria-hidden="true" className={cn('clip-skeleton', `clip-skeleton--${shape}`, className)} {...props} />;
});
