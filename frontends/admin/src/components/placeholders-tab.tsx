import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  Input,
  Skeleton,
  Spinner,
  useToast,
} from '@clipit/ui';
import type { CreatePlaceholderStreamerRequest, PlaceholderStreamer } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import {
  emptyPlaceholderForm,
  placeholderRequestBody,
  validatePlaceholder,
  type PlaceholderErrors,
  type PlaceholderForm,
} from '../lib/placeholder-form.js';
import { PLACEHOLDERS_KEY, usePlaceholders } from '../lib/queries.js';
import { useFailureToast } from '../lib/use-failure-toast.js';

const CREATE_FAILED = 'Failed to create placeholder streamer';

/** Copies a claim code: 'Copied to clipboard', or 'Failed to copy' / 'Unable to copy to clipboard' (spec 02 §8). */
function useCopy() {
  const { toast } = useToast();
  return async (text: string) => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      toast({ title: 'Copied to clipboard', description: text, variant: 'success' });
    } catch {
      toast({ title: 'Failed to copy', description: 'Unable to copy to clipboard', variant: 'destructive' });
    }
  };
}

function ClaimCode({ code }: { code: string }) {
  const copy = useCopy();
  return (
    <div className="clipit-admin-claim">
      <code className="clipit-admin-code clipit-admin-claim__code">{code}</code>
      <Button size="sm" variant="outline" aria-label={`Copy claim code ${code}`} onClick={() => void copy(code)}>
        Copy
      </Button>
    </div>
  );
}

function PlaceholderCard({ placeholder }: { placeholder: PlaceholderStreamer }) {
  const titleId = useId();
  const claimed = placeholder.claimedBy !== null;
  const claimer = placeholder.claimedByDisplayName ?? 'a streamer';
  return (
    <article className="clip-card clipit-admin-entry" aria-labelledby={titleId}>
      <header className="clipit-admin-entry__header">
        <div>
          <h3 id={titleId} className="clipit-admin-entry__title">
            {placeholder.displayName}
          </h3>
          <p className="clipit-admin-muted">@{placeholder.twitterUsername}</p>
        </div>
        <Badge variant={claimed ? 'success' : 'outline'}>{claimed ? 'Claimed' : 'Unclaimed'}</Badge>
      </header>
      <dl className="clipit-admin-fields">
        <div>
          <dt>Multiplier</dt>
          <dd>{placeholder.streamerMultiplier}x</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(placeholder.createdAt)}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Claim code</dt>
          <dd>
            <ClaimCode code={placeholder.claimCode} />
          </dd>
        </div>
        {claimed ? (
          <div className="clipit-admin-fields__wide">
            <dt>Claim</dt>
            <dd>
              Claimed by {claimer}
              {placeholder.claimedByHandle ? ` (@${placeholder.claimedByHandle})` : ''}
              {placeholder.claimedAt ? ` on ${formatDate(placeholder.claimedAt)}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}

function CreatePlaceholderForm() {
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [form, setForm] = useState<PlaceholderForm>(emptyPlaceholderForm);
  const [errors, setErrors] = useState<PlaceholderErrors>({});
  const [created, setCreated] = useState<PlaceholderStreamer | null>(null);

  const create = useMutation({
    mutationFn: (body: CreatePlaceholderStreamerRequest) => request<PlaceholderStreamer>('POST', PLACEHOLDERS_KEY[0], body),
    onSuccess: async (placeholder) => {
      toast({ title: 'Placeholder Streamer Created', description: `Claim code: ${placeholder.claimCode}`, variant: 'success' });
      setCreated(placeholder);
      setForm(emptyPlaceholderForm);
      queryClient.setQueryData<PlaceholderStreamer[]>(PLACEHOLDERS_KEY, (list) =>
        list ? [placeholder, ...list.filter((p) => p.id !== placeholder.id)] : list,
      );
      await queryClient.invalidateQueries({ queryKey: PLACEHOLDERS_KEY });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: CREATE_FAILED, description: failureText(error, CREATE_FAILED), variant: 'destructive' });
    },
  });

  const field = (name: keyof PlaceholderForm) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value;
      setForm((f) => ({ ...f, [name]: value }));
      setErrors((e) => ({ ...e, [name]: undefined }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePlaceholder(form);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    create.mutate(placeholderRequestBody(form));
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle level={3}>Create Placeholder Streamer</CardTitle>
        <CardDescription>A profile a streamer claims later with its claim code when they sign up.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="clipit-admin-form" noValidate aria-label="Create placeholder streamer" onSubmit={submit}>
          <Input label="Display Name" required autoComplete="off" {...field('displayName')} />
          <Input
            label="Twitter Username"
            required
            autoComplete="off"
            placeholder="username"
            description="Without the @."
            spellCheck={false}
            {...field('twitterUsername')}
          />
          <Input label="Profile Image URL (optional)" type="url" placeholder="https://…" {...field('profileImageUrl')} />
          <Input label="Banner Image URL (optional)" type="url" placeholder="https://…" {...field('bannerImageUrl')} />
          <Input
            label="Streamer Multiplier"
            type="number"
            inputMode="decimal"
            min="1"
            max="2"
            step="0.01"
            placeholder="1.00"
            description="From 1.00 to 2.00: the bonus clippers earn on this streamer's clips."
            {...field('streamerMultiplier')}
          />
          <Button type="submit" loading={create.isPending} loadingText="Creating...">
            Create Placeholder
          </Button>
        </form>
        {created ? (
          <div className="clipit-admin-notice clipit-admin-notice--success clipit-admin-created" role="status">
            <p>
              Created <strong>{created.displayName}</strong> (@{created.twitterUsername}). Share this claim code with the streamer:
            </p>
            <ClaimCode code={created.claimCode} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Placeholder Streamers: the creation form and every profile with its claim code (spec 02 §2.4, §5). */
export function PlaceholdersTab() {
  const placeholders = usePlaceholders();
  useFailureToast(placeholders.error, placeholders.errorUpdatedAt, 'Failed to fetch placeholder streamers');

  return (
    <div className="clipit-admin-split">
      <CreatePlaceholderForm />
      <section aria-labelledby="placeholder-list-title" className="clipit-admin-list">
        <h3 id="placeholder-list-title" className="clipit-admin-subtitle">
          Placeholder Profiles
        </h3>
        {placeholders.isPending ? (
          <div aria-busy="true" className="clipit-admin-list">
            <Spinner label="Loading placeholder streamers" />
            <Skeleton className="clipit-admin-skeleton--block" />
          </div>
        ) : placeholders.isError && !placeholders.data ? (
          <p className="clipit-admin-error-text" role="alert">
            Failed to fetch placeholder streamers
          </p>
        ) : placeholders.data.length === 0 ? (
          <p className="clipit-admin-empty">No placeholder streamers yet.</p>
        ) : (
          <ul className="clipit-admin-list__items" aria-label="Placeholder streamers">
            {placeholders.data.map((placeholder) => (
              <li key={placeholder.id}>
                <PlaceholderCard placeholder={placeholder} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
