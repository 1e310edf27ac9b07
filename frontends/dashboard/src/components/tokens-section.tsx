import { checkToken, TOKEN_LIMITS, type TokenField } from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Textarea, useToast } from '@clipit/ui';
import { apiJson, type CreateTokenRequest, type MyToken, type UpdateTokenRequest } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { myTokensKey, serverText } from '../lib/campaigns-data.js';
import { ListError, ListSkeleton } from './tagged-videos-tab.js';

interface TokenValues {
  name: string;
  pumpFunLink: string;
  description: string;
}
const EMPTY: TokenValues = { name: '', pumpFunLink: '', description: '' };
const valuesOf = (token: MyToken): TokenValues => ({
  name: token.name,
  pumpFunLink: token.pumpFunLink ?? '',
  description: token.description ?? '',
});

/** After a token changed: the streamer's list, and the active tokens a clip can be tagged with. */
async function refreshTokens(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: myTokensKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/tokens'], exact: true }),
  ]);
}

/**
 * A token's form (spec 02 §5 "Token"): adding one (`token` absent) or editing one. Every rule of checkToken
 * shows beside its field once the form was sent, and nothing is sent while one is broken.
 */
function TokenForm({ token, onDone }: { token?: MyToken; onDone: () => void }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<TokenValues>(() => (token ? valuesOf(token) : EMPTY));
  const [attempted, setAttempted] = useState(false);
  const check = checkToken(values);
  const errorOf = (field: TokenField) => (attempted && !check.ok ? check.errors[field] : undefined);
  const editing = token !== undefined;

  const save = useMutation({
    mutationFn: (body: CreateTokenRequest | UpdateTokenRequest) =>
      editing
        ? apiJson<MyToken>('PATCH', `/api/tokens/${encodeURIComponent(token.id)}`, body)
        : apiJson<MyToken>('POST', '/api/tokens', body),
    onSuccess: async () => {
      toast({ title: editing ? 'Token saved' : 'Token created', variant: 'success' });
      onDone();
      await refreshTokens(queryClient);
    },
    onError: (error: Error) =>
      toast({
        title: editing ? 'Failed to save token' : 'Failed to create token',
        description: serverText(error, 'Please try again.'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    setAttempted(true);
    if (!check.ok) return;
    const { name, pumpFunLink, description } = check.value;
    // A new token is active; an edit leaves the active flag to its own switch.
    save.mutate({ name, pumpFunLink, description });
  };

  const set = (field: keyof TokenValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  return (
    <form
      className="clipit-dash-form clipit-dash-token-form"
      onSubmit={submit}
      noValidate
      aria-label={editing ? `Edit ${token.name}` : 'Add a token'}
    >
      <Input
        label="Token Name"
        name="name"
        value={values.name}
        maxLength={TOKEN_LIMITS.name.max}
        error={errorOf('name')}
        onChange={(e) => set('name')(e.target.value)}
      />
      <Input
        label="PumpFun Link"
        name="pumpFunLink"
        type="url"
        placeholder="https://pump.fun/coin/…"
        value={values.pumpFunLink}
        error={errorOf('pumpFunLink')}
        onChange={(e) => set('pumpFunLink')(e.target.value)}
      />
      <Textarea
        label="Description (optional)"
        name="description"
        rows={2}
        maxLength={TOKEN_LIMITS.description.max}
        showCount
        value={values.description}
        error={errorOf('description')}
        onChange={(e) => set('description')(e.target.value)}
      />
      <div className="clipit-dash-actions">
        <Button type="submit" disabled={save.isPending} loading={save.isPending} loadingText="Saving...">
          {editing ? 'Save Token' : 'Create Token'}
        </Button>
        <Button type="button" variant="ghost" disabled={save.isPending} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function TokenItem({ token }: { token: MyToken }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const active = token.isActive === 'true';
  const toggle = useMutation({
    mutationFn: () =>
      apiJson<MyToken>('PATCH', `/api/tokens/${encodeURIComponent(token.id)}`, { isActive: !active } satisfies UpdateTokenRequest),
    onSuccess: async (saved) => {
      toast({
        title: 'Token saved',
        description: `${saved.name} is now ${saved.isActive === 'true' ? 'active' : 'inactive'}.`,
        variant: 'success',
      });
      await refreshTokens(queryClient);
    },
    onError: (error: Error) =>
      toast({ title: 'Failed to save token', description: serverText(error, 'Please try again.'), variant: 'destructive' }),
  });

  if (editing) {
    return (
      <li className="clipit-dash-list__item clipit-dash-token clipit-dash-token--editing">
        <TokenForm token={token} onDone={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="clipit-dash-list__item clipit-dash-token">
      <div className="clipit-dash-list__main">
        <h3 className="clipit-dash-list__title">{token.name}</h3>
        {token.pumpFunLink ? (
          <p>
            <a href={token.pumpFunLink} target="_blank" rel="noopener noreferrer">
              {token.pumpFunLink}
            </a>
          </p>
        ) : null}
        {token.description ? <p className="clipit-dash-muted">{token.description}</p> : null}
      </div>
      <div className="clipit-dash-token__side">
        <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>
        <div className="clipit-dash-actions">
          <Button size="sm" variant="outline" aria-label={`Edit ${token.name}`} onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-label={`${active ? 'Deactivate' : 'Activate'} ${token.name}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {active ? 'Deactivate' : 'Activate'}
          </Button>
        </div>
      </div>
    </li>
  );
}

/**
 * 'Your tokens' (spec 02 §3 tokens, §5 Token; ADR 0027): below the live controls, the streamer's tokens
 * (active or not) with add, edit and activate / deactivate. Only active tokens can be tagged on a clip.
 */
export function TokensSection() {
  const query = useQuery<MyToken[]>({ queryKey: myTokensKey });
  const [adding, setAdding] = useState(false);

  let list;
  if (query.isPending) list = <ListSkeleton rows={1} className="clipit-dash-list" />;
  else if (query.isError) list = <ListError what="Your tokens" error={query.error} />;
  else if (query.data.length === 0)
    list = <p className="clipit-dash-muted">No tokens yet. Add one so clippers can tag their clips with it.</p>;
  else
    list = (
      <ul className="clipit-dash-list" aria-label="Your tokens">
        {query.data.map((token) => (
          <TokenItem key={token.id} token={token} />
        ))}
      </ul>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Your tokens</CardTitle>
        <CardDescription>Clippers tag their clips with your active tokens. An inactive token cannot be tagged.</CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        {list}
        {adding ? (
          <TokenForm onDone={() => setAdding(false)} />
        ) : (
          <div className="clipit-dash-actions">
            <Button variant="outline" onClick={() => setAdding(true)}>
              Add Token
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
