import { Button, Input, useToast, type ToastOptions } from '@clipit/ui';
import { HttpError } from '@clipit/web-api';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { serverText } from '../lib/campaigns-data.js';
import { ListSkeleton } from './tagged-videos-tab.js';

// What the Developer API card and the Webhooks card (issue 37, ADR 0053) do alike: a form checked by
// field-rules whose 400s are shown at their field, a group of checkboxes from a rules list, a secret shown
// once, the user's list, and an action behind an inline confirmation.

/** The toast of a refused or failed call: the server's text, or 'Please try again.' when there is none. */
export function failedToast(title: string, error: Error): ToastOptions {
  return { title, description: serverText(error, 'Please try again.'), variant: 'destructive' };
}

type FieldErrors<V> = Partial<Record<keyof V, string | undefined>>;

/**
 * A form's values and errors, the rules' words at each field. `fieldOf` says which field a 400's words belong
 * to: the server checks with the same rules, so it answers the same words.
 */
export function useRuleForm<V extends object>(empty: V, fieldOf: ReadonlyMap<string, keyof V>) {
  const { toast } = useToast();
  const [values, setValues] = useState<V>(empty);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  /** A field changed: its error goes until the next try. */
  const change = (patch: Partial<V>, field: keyof V) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** A rule's refusal is shown at its field; anything else (a limit, an outage) in a toast titled `title`. */
  const refused = (error: Error, title: string) => {
    const text = serverText(error, 'Please try again.');
    const field = error instanceof HttpError && error.status === 400 ? fieldOf.get(text) : undefined;
    if (field) setErrors({ [field]: text } as FieldErrors<V>);
    else toast(failedToast(title, error));
  };

  return { values, errors, setErrors, change, refused };
}

/** One checkbox a choice of the rules' list, with what it means; the group's error is announced with it. */
export function RuleChoices<C extends string>({
  legend,
  name,
  choices,
  descriptions,
  chosen,
  error,
  onChange,
}: {
  legend: string;
  name: string;
  choices: readonly C[];
  descriptions: Record<C, string>;
  chosen: readonly C[];
  error: string | undefined;
  onChange: (chosen: C[]) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className="clipit-dash-fieldset clipit-dash-fieldset--tight" aria-describedby={error ? errorId : undefined}>
      <legend className="clip-field__label">{legend}</legend>
      {choices.map((choice) => (
        <div key={choice} className="clipit-dash-check">
          <input
            id={`${id}-${choice}`}
            type="checkbox"
            name={name}
            value={choice}
            checked={chosen.includes(choice)}
            aria-describedby={`${id}-${choice}-d`}
            onChange={(event) => onChange(event.target.checked ? [...chosen, choice] : chosen.filter((c) => c !== choice))}
          />
          <label htmlFor={`${id}-${choice}`}>
            <code>{choice}</code>
          </label>
          <p id={`${id}-${choice}-d`} className="clip-field__description">
            {descriptions[choice]}
          </p>
        </div>
      ))}
      {error ? (
        <p id={errorId} className="clip-field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A secret just made (an API key, a webhook's signing secret): shown this once in a read-only field, with
 * Copy, until Done. `noun` names it in the words around it; `children` come between the field and the buttons.
 */
export function SecretShown({
  label,
  fieldLabel,
  name,
  noun,
  secret,
  intro,
  children,
  onDone,
}: {
  label: string;
  fieldLabel: string;
  name: string;
  noun: string;
  secret: string;
  intro: ReactNode;
  children?: ReactNode;
  onDone: () => void;
}) {
  const { toast } = useToast();
  const field = useRef<HTMLInputElement>(null);
  // What had focus is gone: focus (and select) the secret, ready to copy.
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(secret);
      toast({ title: 'Copied', variant: 'success' });
    } catch {
      toast({ title: 'Could not copy', description: `Select the ${noun} and copy it yourself.`, variant: 'destructive' });
    }
  };
  return (
    <section className="clipit-dash-note clipit-dash-note--success clipit-dash-stack clipit-dash-apikey__new" aria-label={label}>
      <p>
        {intro} Copy the {noun} now: it will not be shown again.
      </p>
      <Input
        ref={field}
        label={fieldLabel}
        name={name}
        readOnly
        spellCheck={false}
        autoComplete="off"
        className="clipit-dash-apikey__secret"
        value={secret}
        onFocus={(event) => event.target.select()}
      />
      {children}
      <div className="clipit-dash-actions">
        <Button onClick={() => void copy()}>Copy</Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}

/**
 * The user's list as its query stands: a skeleton while it loads, the server's text after `failed` when it
 * fails, `empty` when there is nothing, else the items (`children` gives each its row, with its key).
 */
export function QueryList<T>({
  query,
  label,
  failed,
  empty,
  children,
}: {
  query: UseQueryResult<readonly T[]>;
  label: string;
  failed: string;
  empty: string;
  children: (item: T) => ReactNode;
}) {
  if (query.isPending) return <ListSkeleton rows={1} className="clipit-dash-list" />;
  if (query.isError)
    return (
      <p role="alert" className="clipit-dash-note clipit-dash-note--error">
        {failed}: {serverText(query.error, query.error.message)}
      </p>
    );
  if (query.data.length === 0) return <p className="clipit-dash-muted">{empty}</p>;
  return (
    <ul className="clipit-dash-list" aria-label={label}>
      {query.data.map(children)}
    </ul>
  );
}

/**
 * Which action of an item waits for its confirmation, if any. Focus follows the choice: to Cancel when asked,
 * back to the button that asked (`askers`) when cancelled, as the button it was on is gone. `close` ends it
 * without giving the focus back, for an answer that takes the focus itself.
 */
export function useInlineConfirm<A extends string>(askers: Record<A, RefObject<HTMLButtonElement | null>>) {
  const [confirming, setConfirming] = useState<A | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const lastConfirming = useRef<A | null>(null);
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (lastConfirming.current) askers[lastConfirming.current].current?.focus();
    lastConfirming.current = confirming;
  }, [confirming]);

  return {
    confirming,
    cancelButton,
    ask: (action: A) => setConfirming(action),
    cancel: () => setConfirming(null),
    close: () => {
      lastConfirming.current = null;
      setConfirming(null);
    },
  };
}

/** The inline confirmation of an action: what it does, the action, and Cancel (focused when it opens). */
export function InlineConfirm({
  confirm,
  label,
  warning,
  action,
  variant,
  pending,
  pendingText,
  busy,
  onConfirm,
}: {
  confirm: Pick<ReturnType<typeof useInlineConfirm>, 'cancelButton' | 'cancel'>;
  label: string;
  warning: ReactNode;
  action: string;
  variant?: 'destructive';
  pending: boolean;
  pendingText: string;
  /** Cancel is disabled while any of the item's actions is under way. */
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <div className="clipit-dash-apikey__confirm" role="group" aria-label={label}>
      <p className="clipit-dash-muted">{warning}</p>
      <div className="clipit-dash-actions">
        <Button size="sm" variant={variant} loading={pending} loadingText={pendingText} onClick={onConfirm}>
          {action}
        </Button>
        <Button ref={confirm.cancelButton} size="sm" variant="ghost" disabled={busy} onClick={confirm.cancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
