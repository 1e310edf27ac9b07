import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

export type BadgeVariant = 'default' | 'primary' | 'secondary' | 'outline' | 'success' | 'warning' | 'destructive' | 'live';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  /** live: a pulsing dot before the text (static under prefers-reduced-motion). */
  variant?: BadgeVariant;
}

/** A short label (status, tier, 'Live'). Its text is what screen readers read: keep it meaningful. */
export const Badge = forwardRef<HTMLSpanElement, BadgeProps>(function Badge({ variant = 'default', className, children, ...props }, ref) {
  return (
    <span ref={ref} className={cn('clip-badge', `clip-badge--${variant}`, className)} {...props}>
      {variant === 'live' ? <span className="clip-badge__dot" aria-hidden="true" /> : null}
      {children}
    </span>
  );
});
