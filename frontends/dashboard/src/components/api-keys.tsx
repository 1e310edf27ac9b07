import {
  API_KEY_MESSAGES,
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  API_KEYS_PER_USER_MAX,
  checkApiKeyExpiry,
  checkApiKeyName,
  checkApiKeyScopes,
  type ApiKeyScope,
} from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, formatDate, Input, Select, useToast } from '@clipit/ui';
import { apiJson, apiRequest, HttpError, type ApiAnswer, type ApiRequestBody } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { serverText } from '../lib/campaigns-data.js';
import { ListSkeleton } from './tagged-videos-tab.js';

// The Developer API card (issue 37, ADR 0053): a signed-in user's keys for the read API at /api/v1, made,
// shown once, listed and revoked. The rules and their words are field-rules' (the gateway checks the same).

type ApiKeyList = ApiAnswer<'/api/keys', 'get'>;
export type ApiKey = ApiKeyList['keys'][number];
type CreatedApiKey = ApiAnswer<'/api/keys', 'post'>;
type NewApiKey = ApiRequestBody<'/api/keys', 'post'>;
export const apiKeysKey = ['/api/keys'] as const;

/** What each scope lets a key read, in the words of the person choosing it. */
const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  'campaigns:read': 'Your campaigns as a streamer, with their delivered and verified views',
  'submissions:read': 'Your own submissions as a clipper, with your earnings and payouts',
  'leaderboards:read': 'The public leaderboards',
};

const DAY_MS = 86_400_000;
const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never', days: null },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];
const isExpiryChoice = (value: string): value is ExpiryChoice => EXPIRY_CHOICES.some((c) => c.value === value);

/** The expiry sent for a choice, counted from the moment the form is sent. */
function expiresAtFor(choice: ExpiryChoice, now: Date): string | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days ?? null;
  return days === null ? null : new Date(now.getTime() + days * DAY_MS).toISOString();
}

interface FormValues {
  name: string;
  scopes: ApiKeyScope[];
  expiry: ExpiryChoice;
}
const EMPTY: FormValues = { name: '', scopes: [], expiry: 'never' };

type FormField = 'name' | 'scopes' | 'expiry';
type FormErrors = Partial<Record<FormField, string | undefined>>;

/** Which field a 400's words belong to: the server checks with the same rules, so it answers the same words. */
const FIELD_OF_MESSAGE = new Map<string, FormField>([
  [API_KEY_MESSAGES.nameRequired, 'name'],
  [API_KEY_MESSAGES.nameTooLong, 'name'],
  [API_KEY_MESSAGES.scopesRequired, 'scopes'],
  [API_KEY_MESSAGES.badScope, 'scopes'],
  [API_KEY_MESSAGES.badExpiry, 'expiry'],
  [API_KEY_MESSAGES.expiryPast, 'expiry'],
  [API_KEY_MESSAGES.expiryTooFar, 'expiry'],
]);

/** One checkbox a scope, with what it reads; the group's error is announced with it. */
function ScopeChoices({
  chosen,
  error,
  onChange,
}: {
  chosen: readonly ApiKeyScope[];
  error: string | undefined;
  onChange: (scopes: ApiKeyScope[]) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className="clipit-dash-fieldset clipit-dash-fieldset--tight" aria-describedby={error ? errorId : undefined}>
      <legend className="clip-field__label">Scopes</legend>
      {API_KEY_SCOPES.map((scope) => (
        <div key={scope} className="clipit-dash-check">
          <input
            id={`${id}-${scope}`}
            type="checkbox"
            name="scopes"
            value={scope}
            checked={chosen.includes(scope)}
            aria-describedby={`${id}-${scope}-d`}
            onChange={(event) => onChange(event.target.checked ? [...chosen, scope] : chosen.filter((s) => s !== scope))}
          />
          <label htmlFor={`${id}-${scope}`}>
            <code>{scope}</code>
          </label>
          <p id={`${id}-${scope}-d`} className="clip-field__description">
            {SCOPE_DESCRIPTIONS[scope]}
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

/** The form that makes a key; `onCreated` receives the answer, the only time the key itself is seen. */
function NewKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey, name: string) => void }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<FormErrors>({});

  const create = useMutation({
    mutationFn: (body: NewApiKey) => apiJson<CreatedApiKey>('POST', '/api/keys', body),
    // The form gives way to the key (a new form starts empty), and the list is read again.
    onSuccess: async (created, body) => {
      onCreated(created, body.name ?? '');
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
    onError: (error: Error) => {
      const text = serverText(error, 'Please try again.');
      // A rule's refusal is shown at its field; anything else (the 20-key limit, an outage) in a toast.
      const field = error instanceof HttpError && error.status === 400 ? FIELD_OF_MESSAGE.get(text) : undefined;
      if (field) setErrors({ [field]: text });
      else toast({ title: 'Could not create the key', description: text, variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const now = new Date();
    const expiresAt = expiresAtFor(values.expiry, now);
    const name = checkApiKeyName(values.name);
    const scopes = checkApiKeyScopes(values.scopes);
    const expiry = checkApiKeyExpiry(expiresAt, now);
    setErrors({ name: name.error, scopes: scopes.error, expiry: expiry.error });
    if (name.error !== undefined || scopes.error !== undefined || expiry.error !== undefined) return;
    create.mutate({ name: name.name, scopes: scopes.scopes, expiresAt });
  };

  const change = (patch: Partial<FormValues>, field: FormField) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <form className="clipit-dash-form" onSubmit={submit} noValidate aria-label="Create an API key">
      <Input
        label="Key Name"
        name="name"
        autoComplete="off"
        placeholder="Agency reporting"
        maxLength={API_KEY_NAME_MAX}
        value={values.name}
        error={errors.name}
        onChange={(event) => change({ name: event.target.value }, 'name')}
      />
      <ScopeChoices chosen={values.scopes} error={errors.scopes} onChange={(scopes) => change({ scopes }, 'scopes')} />
      <Select
        label="Expires"
        name="expiry"
        options={EXPIRY_CHOICES}
        value={values.expiry}
        error={errors.expiry}
        description="An expired key stops working; make a new one then."
        onChange={(event) => {
          const expiry = event.target.value;
          if (isExpiryChoice(expiry)) change({ expiry }, 'expiry');
        }}
      />
      <div className="clipit-dash-actions">
        <Button type="submit" disabled={create.isPending} loading={create.isPending} loadingText="Creating...">
          Create Key
        </Button>
      </div>
    </form>
  );
}

/** A key just made: shown this once, with Copy, until Done. */
function NewKeyShown({ created, name, onDone }: { created: CreatedApiKey; name: string; onDone: () => void }) {
  const { toast } = useToast();
  const field = useRef<HTMLInputElement>(null);
  // The form that had focus is gone: focus (and select) the key, ready to copy.
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(created.key);
      toast({ title: 'Copied', variant: 'success' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the key and copy it yourself.', variant: 'destructive' });
    }
  };
  return (
    <section className="clipit-dash-note clipit-dash-note--success clipit-dash-stack clipit-dash-apikey__new" aria-label="Your new API key">
      <p>
        <strong>{name}</strong> is ready. Copy the key now: it will not be shown again.
      </p>
      <Input
        ref={field}
        label="API Key"
        name="apiKey"
        readOnly
        spellCheck={false}
        autoComplete="off"
        className="clipit-dash-apikey__secret"
        value={created.key}
        onFocus={(event) => event.target.select()}
      />
      <div className="clipit-dash-actions">
        <Button onClick={() => void copy()}>Copy</Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}

function expiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'No expiry';
  return new Date(expiresAt).getTime() <= now ? 'Expired' : `Expires ${formatDate(expiresAt)}`;
}

/** One key of the list: what tells it apart, its use, and Revoke behind an inline confirmation. */
function ApiKeyItem({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // Focus follows the choice: to Cancel when asked, back to Revoke when cancelled (the button it was on is gone).
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
    else if (wasConfirming.current) revokeButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  const revoke = useMutation({
    mutationFn: () => apiRequest('DELETE', `/api/keys/${encodeURIComponent(apiKey.id)}`),
    onSuccess: () => {
      toast({ title: 'Key revoked', description: `${apiKey.name} no longer works.`, variant: 'success' });
      queryClient.setQueryData<ApiKeyList>(apiKeysKey, (list) => list && { keys: list.keys.filter((k) => k.id !== apiKey.id) });
    },
    onError: (error: Error) =>
      toast({ title: 'Could not revoke the key', description: serverText(error, 'Please try again.'), variant: 'destructive' }),
    // Revoked or not (a 404: revoked elsewhere), the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });

  const expiry = expiryText(apiKey.expiresAt, now);
  return (
    <li className="clipit-dash-list__item clipit-dash-apikey">
      <div className="clipit-dash-list__main">
        <h3 className="clipit-dash-list__title">{apiKey.name}</h3>
        <p>
          <code>{apiKey.prefix}…</code>
        </p>
        <p className="clipit-dash-apikey__scopes">
          {apiKey.scopes.map((scope) => (
            <Badge key={scope} variant="secondary">
              {scope}
            </Badge>
          ))}
        </p>
        <p className="clipit-dash-muted">
          Created {formatDate(apiKey.createdAt)} · {apiKey.lastUsedAt ? `Last used ${formatDate(apiKey.lastUsedAt)}` : 'Never used'}
        </p>
        <p className="clipit-dash-muted">{expiry === 'Expired' ? <Badge variant="destructive">Expired</Badge> : expiry}</p>
      </div>
      <div className="clipit-dash-token__side">
        {confirming ? (
          <div className="clipit-dash-apikey__confirm" role="group" aria-label={`Revoke ${apiKey.name}?`}>
            <p className="clipit-dash-muted">Programs using it stop working at once.</p>
            <div className="clipit-dash-actions">
              <Button size="sm" variant="destructive" loading={revoke.isPending} loadingText="Revoking..." onClick={() => revoke.mutate()}>
                Revoke key
              </Button>
              <Button ref={cancelButton} size="sm" variant="ghost" disabled={revoke.isPending} onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <Button ref={revokeButton} size="sm" variant="outline" aria-label={`Revoke ${apiKey.name}`} onClick={() => setConfirming(true)}>
            Revoke
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * 'Developer API' (issue 37, ADR 0053): the signed-in user's API keys for /api/v1. A new key is shown once,
 * right after it is made; the list shows each key's prefix, scopes, use and expiry, and revokes one.
 */
export function ApiKeysCard() {
  const query = useQuery<ApiKeyList>({ queryKey: apiKeysKey });
  const [created, setCreated] = useState<{ key: CreatedApiKey; name: string } | undefined>();
  const now = Date.now();

  let list;
  if (query.isPending) list = <ListSkeleton rows={1} className="clipit-dash-list" />;
  else if (query.isError)
    list = (
      <p role="alert" className="clipit-dash-note clipit-dash-note--error">
        Could not load your API keys: {serverText(query.error, query.error.message)}
      </p>
    );
  else if (query.data.keys.length === 0) list = <p className="clipit-dash-muted">No API keys yet.</p>;
  else
    list = (
      <ul className="clipit-dash-list" aria-label="Your API keys">
        {query.data.keys.map((apiKey) => (
          <ApiKeyItem key={apiKey.id} apiKey={apiKey} now={now} />
        ))}
      </ul>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Developer API</CardTitle>
        <CardDescription>
          API keys let your own programs read your CLIP IT data. Treat a key like a password; you can have up to {API_KEYS_PER_USER_MAX}.
        </CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        <p className="clipit-dash-muted">
          Send a key as <code>Authorization: Bearer clipit_…</code> to <code>/api/v1</code>: see the{' '}
          <a href="/api/docs/v1" target="_blank" rel="noopener noreferrer">
            API reference
          </a>{' '}
          (OpenAPI).
        </p>
        {created ? (
          <NewKeyShown created={created.key} name={created.name} onDone={() => setCreated(undefined)} />
        ) : (
          <NewKeyForm onCreated={(key, name) => setCreated({ key, name })} />
        )}
        {list}
      </CardContent>
    </Card>
  );
}
