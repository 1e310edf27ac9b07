import { useId, type ReactNode } from 'react';
import { cn } from '../cn.js';

export interface FieldOwnProps {
  /** The visible label (required: every field has an accessible name). */
  label: ReactNode;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
  /** Help text under the field, announced with it (aria-describedby). */
  description?: ReactNode;
  /** Error message; sets aria-invalid and is announced with the field (aria-describedby). */
  error?: ReactNode;
  /** Class of the wrapper around label, control and messages (`className` goes to the control). */
  containerClassName?: string;
}

interface FieldIdsInput {
  id: string | undefined;
  description: ReactNode;
  error: ReactNode;
  describedBy: string | undefined;
  invalid: boolean | 'true' | 'false' | 'grammar' | 'spelling' | undefined;
  /** Further ids to announce with the field (a character counter). */
  extra?: string | undefined;
}

const present = (node: ReactNode) => node !== undefined && node !== null && node !== false && node !== '';

/** Ids and aria-* wiring shared by Input, Textarea and Select. */
export function useFieldIds({ id, description, error, describedBy, invalid, extra }: FieldIdsInput) {
  const generated = useId();
  const controlId = id ?? `${generated}-control`;
  const descriptionId = present(description) ? `${controlId}-description` : undefined;
  const errorId = present(error) ? `${controlId}-error` : undefined;
  const ariaDescribedBy = [describedBy, descriptionId, errorId, extra].filter(Boolean).join(' ') || undefined;
  const ariaInvalid = invalid ?? (errorId ? true : undefined);
  return { controlId, descriptionId, errorId, ariaDescribedBy, ariaInvalid };
}

export type FieldIds = ReturnType<typeof useFieldIds>;

/** The id and aria-* attributes of the control itself (spread before the caller's own props). */
export function controlAttributes(ids: FieldIds) {
  return { id: ids.controlId, 'aria-describedby': ids.ariaDescribedBy, 'aria-invalid': ids.ariaInvalid };
}

interface FieldShellProps {
  ids: FieldIds;
  label: ReactNode;
  hideLabel?: boolean | undefined;
  required?: boolean | undefined;
  description: ReactNode;
  error: ReactNode;
  className?: string | undefined;
  children: ReactNode;
  /** Rendered after the messages (the textarea's counter). */
  footer?: ReactNode;
}

export function FieldShell(props: FieldShellProps) {
  const { ids, label, hideLabel, required, description, error, className, children, footer } = props;
  const { controlId, descriptionId, errorId } = ids;
  return (
    <div className={cn('clip-field', errorId && 'clip-field--invalid', className)}>
      <label htmlFor={controlId} className={cn('clip-field__label', hideLabel && 'clip-sr-only')}>
        {label}
        {required ? (
          <span className="clip-field__required" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </label>
      {children}
      {descriptionId ? (
        <p id={descriptionId} className="clip-field__description">
          {description}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className="clip-field__error">
          {error}
        </p>
      ) : null}
      {footer}
    </div>
  );
}
