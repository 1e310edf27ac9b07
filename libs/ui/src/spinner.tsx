import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

export type SpinnerSize = 'sm' | 'md' | 'lg';

export interface SpinnerProps extends HTMLAttributes<HTMLSpanElement> {
  size?: SpinnerSize;
  /**
   * What is loading ('Loading clips'). With a label the spinner is a status announced to screen
   * readers; without one it is decorative and hidden from them (the caller announces the state).
   */
  label?: string;
}

export const Spinner = forwardRef<HTMLSpanElement, SpinnerProps>(function Spinner({ size = 'md', label, className, ...props }, ref) {
  return (
    <span
      ref={ref}
      className={cn('clip-spinner', `clip-spinner--${size}`, className)}
      {...(label ? { role: 'status' } : { 'aria-hidden': true })}
      {...props}
    >
      {label ? <span className="clip-sr-only">{label}</span> : null}
    </span>
  );
});
