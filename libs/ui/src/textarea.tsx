import { forwardRef, useId, useState, type ChangeEvent, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn.js';
import { controlAttributes, FieldShell, useFieldIds, type FieldOwnProps } from './internal/field.js';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement>, FieldOwnProps {
  /**
   * Shows 'length/maxLength' under the field (or the length alone without maxLength). It is part of
   * the field's description, so a screen reader reads 'n of max characters used' on focus, without
   * a live announcement on every keystroke. The native maxLength drops extra input.
   */
  showCount?: boolean;
}

/** A labelled multi-line input; `ref` and `className` go to the <textarea>. */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea(
  {
    label,
    hideLabel,
    description,
    error,
    containerClassName,
    showCount = false,
    id,
    className,
    onChange,
    'aria-describedby': describedBy,
    'aria-invalid': invalid,
    ...props
  },
  ref,
) {
  // Uncontrolled use still needs the length: track it from the events.
  const [typedLength, setTypedLength] = useState(() => String(props.defaultValue ?? '').length);
  const length = props.value !== undefined ? String(props.value).length : typedLength;
  const generatedId = useId();
  const controlId = id ?? `${generatedId}-control`;
  const counterId = showCount ? `${controlId}-count` : undefined;
  const ids = useFieldIds({ id: controlId, description, error, describedBy, invalid, extra: counterId });
  const { maxLength } = props;

  const handleChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setTypedLength(event.target.value.length);
    onChange?.(event);
  };

  const counter = showCount ? (
    <p id={counterId} className={cn('clip-field__count', maxLength !== undefined && length >= maxLength && 'clip-field__count--full')}>
      <span aria-hidden="true">{maxLength !== undefined ? `${length}/${maxLength}` : length}</span>
      <span className="clip-sr-only">{maxLength !== undefined ? `${length} of ${maxLength} characters used` : `${length} characters`}</span>
    </p>
  ) : null;

  return (
    <FieldShell
      ids={ids}
      label={label}
      hideLabel={hideLabel}
      required={props.required}
      description={description}
      error={error}
      className={containerClassName}
      footer={counter}
    >
      <textarea ref={ref} {...controlAttributes(ids)} className={cn('clip-textarea', className)} onChange={handleChange} {...props} />
    </FieldShell>
  );
});
