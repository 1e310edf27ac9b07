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
import { apiJson, apiRequest, type ApiAnswer, type ApiRequestBody } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { failedToast, InlineConfirm, QueryList, RuleChoices, SecretShown, useInlineConfirm, useRuleForm } from './developer-access.js';

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

/** Which field a 400's words belong to: the server checks with the same rules, so it answers the same words. */
const FIELD_OF_MESSAGE = new Map<string, keyof FormValues>([
  [API_KEY_MESSAGES.nameRequired, 'name'],
  [API_KEY_MESSAGES.nameTooLong, 'name'],
  [API_KEY_MESSAGES.scopesRequired, 'scopes'],
  [API_KEY_MESSAGES.badScope, 'scopes'],
  [API_KEY_MESSAGES.badExpiry, 'expiry'],
  [API_KEY_MESSAGES.expiryPast, 'expiry'],
  [API_KEY_MESSAGES.expiryTooFar, 'expiry'],
]);

/** The form that makes a key; `onCreated` receives the answer, the only time the key itself is seen. */
function NewKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey, name: string) => void }) {
  const queryClient = useQueryClient();
  const { values, errors, setErrors, change, refused } = useRuleForm(EMPTY, FIELD_OF_MESSAGE);

  const create = useMutation({
    mutationFn: (body: NewApiKey) => apiJson<CreatedApiKey>('POST', '/api/keys', body),
    // The form gives way to the key (a new form starts empty), and the list is read again.
    onSuccess: async (created, body) => {
      onCreated(created, body.name ?? '');
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
    // A rule's refusal is shown at its field; anything else (the 20-key limit, an outage) in a toast.
    onError: (error: Error) => refused(error, 'Could not create the key'),
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
      <RuleChoices
        legend="Scopes"
        name="scopes"
        choices={API_KEY_SCOPES}
        descriptions={SCOPE_DESCRIPTIONS}
        chosen={values.scopes}
        error={errors.scopes}
        onChange={(scopes) => change({ scopes }, 'scopes')}
      />
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

function expiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'No expiry';
  return new Date(expiresAt).getTime() <= now ? 'Expired' : `Expires ${formatDate(expiresAt)}`;
}

/** One key of the list: what tells it apart, its use, and Revoke behind an inline confirmation. */
function ApiKeyItem({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirm = useInlineConfirm({ revoke: revokeButton });

  const revoke = useMutation({
    mutationFn: () => apiRequest('DELETE', `/api/keys/${encodeURIComponent(apiKey.id)}`),
    onSuccess: () => {
      toast({ title: 'Key revoked', description: `${apiKey.name} no longer works.`, variant: 'success' });
      queryClient.setQueryData<ApiKeyList>(apiKeysKey, (list) => list && { keys: list.keys.filter((k) => k.id !== apiKey.id) });
    },
    onError: (error: Error) => toast(failedToast('Could not revoke the key', error)),
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
        {confirm.confirming ? (
          <InlineConfirm
            confirm={confirm}
            label={`Revoke ${apiKey.name}?`}
            warning="Programs using it stop working at once."
            action="Revoke key"
            variant="destructive"
            pending={revoke.isPending}
            pendingText="Revoking..."
            busy={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
        ) : (
          <Button ref={revokeButton} size="sm" variant="outline" aria-label={`Revoke ${apiKey.name}`} onClick={() => confirm.ask('revoke')}>
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
  const query = useQuery<ApiKeyList, Error, ApiKey[]>({ queryKey: apiKeysKey, select: (list) => list.keys });
  const [created, setCreated] = useState<{ key: string; name: string } | undefined>();
  const now = Date.now();

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
          <SecretShown
            label="Your new API key"
            fieldLabel="API Key"
            name="apiKey"
            noun="key"
            secret={created.key}
            intro={
              <>
                <strong>{created.name}</strong> is ready.
              </>
            }
            onDone={() => setCreated(undefined)}
          />
        ) : (
          <NewKeyForm onCreated={(answer, name) => setCreated({ key: answer.key, name })} />
        )}
        <QueryList query={query} label="Your API keys" failed="Could not load your API keys" empty="No API keys yet.">
          {(apiKey) => <ApiKeyItem key={apiKey.id} apiKey={apiKey} now={now} />}
        </QueryList>
      </CardContent>
    </Card>
  );
}
