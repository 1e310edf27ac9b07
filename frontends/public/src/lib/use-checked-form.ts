import { useState, type ChangeEvent } from 'react';
import { hasErrors, type Errors } from './validation.js';

type StringFields<F> = { [K in keyof F]: string };

/**
 * A form's values and its field errors, as every form of the public remote keeps them: typing in a
 * field clears its error, `check()` runs the rules and shows what they found before anything is sent,
 * and `field(name)` wires an Input, Select or Textarea (value, error, onChange) in one spread.
 */
export function useCheckedForm<F extends StringFields<F>>(initial: F, validate: (form: F) => Errors<keyof F & string>) {
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Errors<keyof F & string>>({});

  const set = <K extends keyof F & string>(name: K, value: F[K]) => {
    setForm((f) => ({ ...f, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  return {
    form,
    errors,
    set,
    field: <K extends keyof F & string>(name: K) => ({
      value: form[name],
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => set(name, event.target.value as F[K]),
    }),
    /** Runs the rules; true when the form may be sent. */
    check: (): boolean => {
      const found = validate(form);
      setErrors(found);
      return !hasErrors(found);
    },
    reset: () => {
      setForm(initial);
      setErrors({});
    },
  };
}
