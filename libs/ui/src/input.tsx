import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { cn } from './cn.js';
import { controlAttributes, FieldShell, useFieldIds, type FieldOwnProps } from './internal/field.js';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'>, FieldOwnProps {
  /**
   * With type="password": a button that shows or hides the password. Its accessible name says what
   * it will do ('Show password' / 'Hide password') and it controls the input (aria-controls).
   */
  passwordToggle?: boolean;
  showPasswordLabel?: string;
  hidePasswordLabel?: string;
}

/** A labelled text input; `ref` and `className` go to the <input>. */
export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(
  {
    label,
    hideLabel,
    description,
    error,
    containerClassName,
    passwordToggle = false,
    showPasswordLabel = 'Show password',
    hidePasswordLabel = 'Hide password',
    id,
    type = 'text',
    className,
    'aria-describedby': describedBy,
    'aria-invalid': invalid,
    ...props
  },
  ref,
) {
  const [revealed, setRevealed] = useState(false);
  const ids = useFieldIds({ id, description, error, describedBy, invalid });
  const toggle = passwordToggle && type === 'password';
  return (
    <FieldShell
      ids={ids}
      label={label}
      hideLabel={hideLabel}
      required={props.required}
      description={description}
      error={error}
      className={containerClassName}
    >
      <div className={cn('clip-input-wrap', toggle && 'clip-input-wrap--toggle')}>
        <input
          ref={ref}
          {...controlAttributes(ids)}
          type={toggle && revealed ? 'text' : type}
          className={cn('clip-input', className)}
          {...props}
        />
        {toggle ? (
          <button
            type="button"
            className="clip-input__toggle"
            aria-label={revealed ? hidePasswordLabel : showPasswordLabel}
            aria-controls={ids.controlId}
            disabled={props.disabled}
            onClick={() => setRevealed((shown) => !shown)}
          >
            <EyeIcon crossed={revealed} />
          </button>
        ) : null}
      </div>
    </FieldShell>
  );
});

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M3 3l18 18" /> : null}
    </svg>
  );
}
