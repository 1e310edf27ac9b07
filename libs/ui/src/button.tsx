import { forwardRef, type ButtonHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { cn } from './cn.js';
import { Spinner } from './spinner.js';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** `icon` is square: give the button an aria-label. */
  size?: ButtonSize;
  /**
   * Work in progress: shows a spinner, sets aria-busy and aria-disabled and ignores clicks (a
   * submit button does not submit again). The button stays focusable, so keyboard and screen-reader
   * users keep their place, unlike with `disabled`.
   */
  loading?: boolean;
  /** Replaces the children while loading ('Submitting...'). */
  loadingText?: ReactNode;
  /** Takes the full width of its container. */
  block?: boolean;
}

/** A native <button>, `type="button"` unless told otherwise (no accidental form submits). */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = 'primary',
    size = 'md',
    loading = false,
    loadingText,
    block = false,
    type = 'button',
    className,
    onClick,
    children,
    ...props
  },
  ref,
) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (loading) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      ref={ref}
      type={type}
      className={cn(
        'clip-btn',
        `clip-btn--${variant}`,
        `clip-btn--${size}`,
        block && 'clip-btn--block',
        loading && 'clip-btn--loading',
        className,
      )}
      {...props}
      aria-busy={loading || undefined}
      aria-disabled={loading || props['aria-disabled'] || undefined}
      onClick={handleClick}
    >
      {loading ? <Spinner size="sm" className="clip-btn__spinner" /> : null}
      {loading && loadingText !== undefined ? loadingText : children}
    </button>
  );
});
