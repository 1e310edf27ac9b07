import { forwardRef, type SelectHTMLAttributes } from 'react';
import { cn } from './cn.js';
import { controlAttributes, FieldShell, useFieldIds, type FieldOwnProps } from './internal/field.js';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement>, FieldOwnProps {
  /** Options to render (or pass <option> children). */
  options?: readonly SelectOption[];
  /** A first, unselectable option with the value '' ('Select a streamer'). */
  placeholder?: string;
}

/**
 * A styled native <select>: the platform's own keyboard, screen-reader and mobile pickers.
 * `ref` and `className` go to the <select>.
 */
export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  {
    label,
    hideLabel,
    description,
    error,
    containerClassName,
    options,
    placeholder,
    id,
    className,
    children,
    'aria-describedby': describedBy,
    'aria-invalid': invalid,
    ...props
  },
  ref,
) {
  const ids = useFieldIds({ id, description, error, describedBy, invalid });
  // Without a value, a placeholder is what shows first.
  const defaultValue = props.value === undefined && props.defaultValue === undefined && placeholder !== undefined ? '' : props.defaultValue;
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
      <div className="clip-select-wrap">
        <select ref={ref} {...controlAttributes(ids)} className={cn('clip-select', className)} {...props} defaultValue={defaultValue}>
          {placeholder !== undefined ? (
            <option value="" disabled>
              {placeholder}
            </option>
          ) : null}
          {options?.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
          {children}
        </select>
        <svg
          className="clip-select__chevron"
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M6 9l6 6 6-6" />
        </svg>
      </div>
    </FieldShell>
  );
});
