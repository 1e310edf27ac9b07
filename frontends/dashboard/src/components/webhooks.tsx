import {
  checkWebhookEvents,
  checkWebhookUrl,
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_URL_MAX,
  WEBHOOKS_PER_USER_MAX,
  type WebhookEvent,
} from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, formatDate, Input, useToast } from '@clipit/ui';
import { apiJson, apiRequest, type ApiAnswer, type ApiRequestBody } from '@clipit/web-api';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { serverText } from '../lib/campaigns-data.js';
import { failedToast, InlineConfirm, QueryList, RuleChoices, SecretShown, useInlineConfirm, useRuleForm } from './developer-access.js';
import { ListSkeleton } from './tagged-videos-tab.js';

// The webhooks card (issue 37, ADR 0053): a signed-in user's endpoints, each with a Standard Webhooks signing
// secret shown once, its state (failing, disabled, an old secret still signing) and its delivery log. The
// rules and their words are field-rules' (the gateway and the developer service check the same).

type WebhookList = ApiAnswer<'/api/webhooks', 'get'>;
export type WebhookEndpoint = WebhookList['endpoints'][number];
type WithSecret = ApiAnswer<'/api/webhooks', 'post'>;
type NewWebhook = ApiRequestBody<'/api/webhooks', 'post'>;
type DeliveryPage = ApiAnswer<'/api/webhooks/{id}/deliveries', 'get'>;
export type WebhookDelivery = DeliveryPage['deliveries'][number];
export const webhooksKey = ['/api/webhooks'] as const;
const deliveriesKey = (endpointId: string) => ['/api/webhooks', endpointId, 'deliveries'] as const;
const endpointPath = (endpointId: string) => `/api/webhooks/${encodeURIComponent(endpointId)}`;

/** What each event tells, in the words of the person choosing it. */
const EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
  'submission.approved': 'A clip of yours was approved',
  'submission.rejected': 'A clip of yours was rejected',
  'payout.sent': 'A payout was sent to your wallet',
  'campaign.progress': "Your campaign's delivered views passed another 10 %",
  'campaign.completed': "Your campaign's delivered views reached its target",
  'appeal.decided': 'An appeal of yours was decided',
};

interface FormValues {
  url: string;
  events: WebhookEvent[];
}
const EMPTY: FormValues = { url: '', events: [] };

/** Which field a 400's words belong to: the server checks with the same rules, so it answers the same words. */
const FIELD_OF_MESSAGE = new Map<string, keyof FormValues>([
  [WEBHOOK_MESSAGES.urlRequired, 'url'],
  [WEBHOOK_MESSAGES.urlInvalid, 'url'],
  [WEBHOOK_MESSAGES.urlTooLong, 'url'],
  [WEBHOOK_MESSAGES.urlNotHttps, 'url'],
  [WEBHOOK_MESSAGES.urlCredentials, 'url'],
  [WEBHOOK_MESSAGES.urlPrivate, 'url'],
  [WEBHOOK_MESSAGES.eventsRequired, 'events'],
  [WEBHOOK_MESSAGES.badEvent, 'events'],
]);

/** The list as it stands with one endpoint replaced by the server's newer answer. */
function withEndpoint(list: WebhookList | undefined, endpoint: WebhookEndpoint): WebhookList | undefined {
  return list && { endpoints: list.endpoints.map((e) => (e.id === endpoint.id ? endpoint : e)) };
}

/** The form that makes an endpoint; `onCreated` receives the answer, the only time its secret is seen. */
function NewEndpointForm({ onCreated }: { onCreated: (created: WithSecret) => void }) {
  const queryClient = useQueryClient();
  const { values, errors, setErrors, change, refused } = useRuleForm(EMPTY, FIELD_OF_MESSAGE);

  const create = useMutation({
    mutationFn: (body: NewWebhook) => apiJson<WithSecret>('POST', '/api/webhooks', body),
    // The form gives way to the secret (a new form starts empty), and the list is read again.
    onSuccess: async (created) => {
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true });
    },
    // A rule's refusal is shown at its field; anything else (the endpoint limit, an outage) in a toast.
    onError: (error: Error) => refused(error, 'Could not create the endpoint'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    // The browser never allows a loopback receiver: only the server's test configuration may.
    const url = checkWebhookUrl(values.url, { allowLoopback: false });
    const events = checkWebhookEvents(values.events);
    setErrors({ url: url.error, events: events.error });
    if (url.error !== undefined || events.error !== undefined) return;
    create.mutate({ url: url.url, events: events.events });
  };

  return (
    <form className="clipit-dash-form" onSubmit={submit} noValidate aria-label="Add a webhook endpoint">
      <Input
        label="Endpoint URL"
        name="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/webhooks"
        maxLength={WEBHOOK_URL_MAX}
        value={values.url}
        error={errors.url}
        onChange={(event) => change({ url: event.target.value }, 'url')}
      />
      <RuleChoices
        legend="Events"
        name="events"
        choices={WEBHOOK_EVENTS}
        descriptions={EVENT_DESCRIPTIONS}
        chosen={values.events}
        error={errors.events}
        onChange={(events) => change({ events }, 'events')}
      />
      <div className="clipit-dash-actions">
        <Button type="submit" disabled={create.isPending} loading={create.isPending} loadingText="Creating...">
          Create Endpoint
        </Button>
      </div>
    </form>
  );
}

/** A signing secret just made (a new endpoint's, or a rotation's): shown this once, with how to verify deliveries. */
function SigningSecretShown({ secret, intro, onDone }: { secret: string; intro: string; onDone: () => void }) {
  return (
    <SecretShown
      label="Your signing secret"
      fieldLabel="Signing Secret"
      name="webhookSecret"
      noun="secret"
      secret={secret}
      intro={intro}
      onDone={onDone}
    >
      <p className="clipit-dash-muted">
        Verify each delivery with it as{' '}
        <a href="https://www.standardwebhooks.com/" target="_blank" rel="noopener noreferrer">
          Standard Webhooks
        </a>{' '}
        describes: the signature in <code>webhook-signature</code> covers <code>webhook-id</code>, <code>webhook-timestamp</code> and the
        body.
      </p>
    </SecretShown>
  );
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the last attempt got: the receiver's status code, why there was none, or nothing yet. */
function lastOutcome(delivery: WebhookDelivery): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  if (delivery.lastError !== null) return delivery.lastError;
  return 'Not tried yet';
}

/** One delivery of the log: its event, status, attempts and outcome, the receiver's answer behind a disclosure, and Redeliver. */
function DeliveryItem({ endpointId, delivery }: { endpointId: string; delivery: WebhookDelivery }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const responseId = useId();

  const redeliver = useMutation({
    mutationFn: () =>
      apiJson<WebhookDelivery>('POST', `${endpointPath(endpointId)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`),
    onSuccess: () => toast({ title: 'Delivery queued again', variant: 'success' }),
    onError: (error: Error) => toast(failedToast('Could not redeliver', error)),
    // The log and the endpoint's waiting count change either way (a 404: deleted elsewhere).
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
        queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true }),
      ]);
    },
  });

  const delivered = delivery.status === 'delivered';
  // A pending delivery tried before waits for its next attempt; one never tried waits its turn.
  const retrying = !delivered && delivery.attempts > 0 && delivery.nextAttemptAt !== null;
  const created = formatDate(delivery.createdAt);
  return (
    <li className="clipit-dash-list__item clipit-dash-webhook__delivery">
      <div className="clipit-dash-list__main">
        <h4 className="clipit-dash-list__title">
          <code>{delivery.eventType}</code>
        </h4>
        <p>
          <Badge variant={delivered ? 'success' : 'warning'}>{delivered ? 'Delivered' : 'Pending'}</Badge>
          {retrying ? <span className="clipit-dash-muted"> retrying at {formatDate(delivery.nextAttemptAt!)}</span> : null}
        </p>
        <p className="clipit-dash-muted">
          {plural(delivery.attempts, 'attempt', 'attempts')} · {lastOutcome(delivery)}
          {delivery.latencyMs !== null ? ` · ${delivery.latencyMs.toLocaleString('en-US')} ms` : ''}
        </p>
        <p className="clipit-dash-muted">
          Created <time dateTime={delivery.createdAt}>{created}</time>
        </p>
        {delivery.responseExcerpt !== null ? (
          <div>
            <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={responseId} onClick={() => setOpen((o) => !o)}>
              {open ? 'Hide response' : 'Show response'}
            </Button>
            <div id={responseId} hidden={!open}>
              {open ? <pre className="clipit-dash-webhook__response">{delivery.responseExcerpt}</pre> : null}
            </div>
          </div>
        ) : null}
      </div>
      <div className="clipit-dash-token__side">
        <Button
          size="sm"
          variant="outline"
          aria-label={`Redeliver ${delivery.eventType} from ${created}`}
          loading={redeliver.isPending}
          loadingText="Queuing..."
          onClick={() => redeliver.mutate()}
        >
          Redeliver
        </Button>
      </div>
    </li>
  );
}

/** GET a page of the log: the first at its plain path, the next with ?cursor= (as the other paged lists). */
function deliveriesUrl(endpointId: string, cursor: string | null): string {
  const path = `${endpointPath(endpointId)}/deliveries`;
  return cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path;
}

/** An endpoint's delivery log, newest first, page by page with 'Load more deliveries'. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const pages = useInfiniteQuery({
    queryKey: deliveriesKey(endpoint.id),
    queryFn: ({ pageParam }) => apiJson<DeliveryPage>('GET', deliveriesUrl(endpoint.id, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

  let body;
  if (pages.isPending) body = <ListSkeleton rows={2} className="clipit-dash-list" />;
  else if (pages.isError)
    body = (
      <p role="alert" className="clipit-dash-note clipit-dash-note--error">
        Could not load the deliveries: {serverText(pages.error, pages.error.message)}
      </p>
    );
  else {
    const deliveries = pages.data.pages.flatMap((page) => page.deliveries);
    body =
      deliveries.length === 0 ? (
        <p className="clipit-dash-muted">No deliveries yet.</p>
      ) : (
        <>
          <ul className="clipit-dash-list" aria-label={`Deliveries to ${endpoint.url}`}>
            {deliveries.map((delivery) => (
              <DeliveryItem key={delivery.id} endpointId={endpoint.id} delivery={delivery} />
            ))}
          </ul>
          {pages.hasNextPage ? (
            <div className="clipit-dash-more">
              <Button variant="outline" size="sm" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
                {pages.isFetchingNextPage ? 'Loading...' : 'Load more deliveries'}
              </Button>
            </div>
          ) : null}
        </>
      );
  }
  return (
    <section className="clipit-dash-stack clipit-dash-webhook__log" aria-label={`Delivery log of ${endpoint.url}`}>
      {body}
    </section>
  );
}

/** Why an endpoint needs its owner: disabled after failing (with Enable), still failing, or an old secret still signing. */
function EndpointState({ endpoint, now }: { endpoint: WebhookEndpoint; now: number }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const enable = useMutation({
    mutationFn: () => apiJson<WebhookEndpoint>('POST', `${endpointPath(endpoint.id)}/enable`),
    onSuccess: (enabled) => {
      toast({ title: 'Endpoint enabled', description: 'What waited is sent now, in order.', variant: 'success' });
      queryClient.setQueryData<WebhookList>(webhooksKey, (list) => withEndpoint(list, enabled));
    },
    onError: (error: Error) => toast(failedToast('Could not enable the endpoint', error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true }),
  });

  const oldSecret =
    endpoint.previousSecretUntil !== null && Date.parse(endpoint.previousSecretUntil) > now ? (
      <p className="clipit-dash-muted">Old secret valid until {formatDate(endpoint.previousSecretUntil)}</p>
    ) : null;

  if (endpoint.disabledAt !== null) {
    return (
      <>
        <div className="clipit-dash-note clipit-dash-note--error clipit-dash-stack" role="note" aria-label={`${endpoint.url} is disabled`}>
          <p>
            <strong>
              Disabled on {formatDate(endpoint.disabledAt)} after failing for {WEBHOOK_DISABLE_AFTER_DAYS} days
              {endpoint.disabledReason ? ':' : '.'}
            </strong>
            {endpoint.disabledReason ? ` ${endpoint.disabledReason}` : null}
          </p>
          <p>Nothing is sent to it until you enable it; then what waited is sent, in order.</p>
          <div className="clipit-dash-actions">
            <Button size="sm" loading={enable.isPending} loadingText="Enabling..." onClick={() => enable.mutate()}>
              Enable
            </Button>
          </div>
        </div>
        {oldSecret}
      </>
    );
  }
  return (
    <>
      {endpoint.failingSince !== null ? (
        <p className="clipit-dash-note clipit-dash-hold" role="note" aria-label={`${endpoint.url} is failing`}>
          Failing since {formatDate(endpoint.failingSince)}. Deliveries are retried; after {WEBHOOK_DISABLE_AFTER_DAYS} days of failing the
          endpoint is disabled.
        </p>
      ) : null}
      {oldSecret}
    </>
  );
}

/** One endpoint of the list: its URL, events and state; Rotate secret and Delete behind an inline confirmation; its log. */
function EndpointItem({ endpoint, now }: { endpoint: WebhookEndpoint; now: number }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [rotated, setRotated] = useState<string | undefined>();
  const [logOpen, setLogOpen] = useState(false);
  const logId = useId();
  const rotateButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirm = useInlineConfirm({ rotate: rotateButton, delete: deleteButton });

  const rotate = useMutation({
    mutationFn: () => apiJson<WithSecret>('POST', `${endpointPath(endpoint.id)}/rotate-secret`),
    onSuccess: (answer) => {
      // The new secret takes the focus, not the button that asked.
      confirm.close();
      setRotated(answer.secret);
      queryClient.setQueryData<WebhookList>(webhooksKey, (list) => withEndpoint(list, answer.endpoint));
    },
    onError: (error: Error) => toast(failedToast('Could not rotate the secret', error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true }),
  });

  const remove = useMutation({
    mutationFn: () => apiRequest('DELETE', endpointPath(endpoint.id)),
    onSuccess: () => {
      toast({ title: 'Endpoint deleted', description: `Nothing more is sent to ${endpoint.url}.`, variant: 'success' });
      queryClient.setQueryData<WebhookList>(
        webhooksKey,
        (list) => list && { endpoints: list.endpoints.filter((e) => e.id !== endpoint.id) },
      );
      queryClient.removeQueries({ queryKey: deliveriesKey(endpoint.id) });
    },
    onError: (error: Error) => toast(failedToast('Could not delete the endpoint', error)),
    // Deleted or not (a 404: deleted elsewhere), the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true }),
  });

  const busy = rotate.isPending || remove.isPending;
  let side;
  if (confirm.confirming === 'rotate')
    side = (
      <InlineConfirm
        confirm={confirm}
        label={`Rotate the secret of ${endpoint.url}?`}
        warning={`A new secret signs every delivery at once; the old one keeps signing beside it for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours.`}
        action="Rotate now"
        pending={rotate.isPending}
        pendingText="Rotating..."
        busy={busy}
        onConfirm={() => rotate.mutate()}
      />
    );
  else if (confirm.confirming === 'delete')
    side = (
      <InlineConfirm
        confirm={confirm}
        label={`Delete ${endpoint.url}?`}
        warning="Nothing more is sent to it, and its delivery log goes with it."
        action="Delete endpoint"
        variant="destructive"
        pending={remove.isPending}
        pendingText="Deleting..."
        busy={busy}
        onConfirm={() => remove.mutate()}
      />
    );
  else
    side = (
      <div className="clipit-dash-actions">
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Deliveries to ${endpoint.url}`}
          aria-expanded={logOpen}
          aria-controls={logId}
          onClick={() => setLogOpen((o) => !o)}
        >
          Deliveries
        </Button>
        <Button
          ref={rotateButton}
          size="sm"
          variant="outline"
          aria-label={`Rotate secret of ${endpoint.url}`}
          onClick={() => confirm.ask('rotate')}
        >
          Rotate secret
        </Button>
        <Button ref={deleteButton} size="sm" variant="outline" aria-label={`Delete ${endpoint.url}`} onClick={() => confirm.ask('delete')}>
          Delete
        </Button>
      </div>
    );

  return (
    <li className="clipit-dash-list__item clipit-dash-apikey clipit-dash-webhook">
      <div className="clipit-dash-webhook__row">
        <div className="clipit-dash-list__main">
          <h3 className="clipit-dash-list__title">
            <code>{endpoint.url}</code>
          </h3>
          <p className="clipit-dash-apikey__scopes">
            {endpoint.events.map((event) => (
              <Badge key={event} variant="secondary">
                {event}
              </Badge>
            ))}
          </p>
          <p className="clipit-dash-muted">
            Created {formatDate(endpoint.createdAt)} · {plural(endpoint.pendingDeliveries, 'delivery', 'deliveries')} waiting
          </p>
          <EndpointState endpoint={endpoint} now={now} />
        </div>
        <div className="clipit-dash-token__side">{side}</div>
      </div>
      {rotated !== undefined ? (
        <SigningSecretShown
          secret={rotated}
          intro={`A new signing secret for ${endpoint.url}. The old one keeps signing beside it for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours.`}
          onDone={() => {
            setRotated(undefined);
            // The secret's field had focus and is gone: back to where it started.
            rotateButton.current?.focus();
          }}
        />
      ) : null}
      {/* The log is read only while open; closed, its panel stays in the page for aria-controls. */}
      <div id={logId} hidden={!logOpen}>
        {logOpen ? <DeliveryLog endpoint={endpoint} /> : null}
      </div>
    </li>
  );
}

/**
 * 'Webhooks' (issue 37, ADR 0053): the signed-in user's webhook endpoints. A new endpoint's signing secret is
 * shown once, right after it is made (a rotated one too); the list shows each endpoint's events and state,
 * rotates its secret, deletes it, enables it again when it was disabled, and opens its delivery log.
 */
export function WebhooksCard() {
  const query = useQuery<WebhookList, Error, WebhookEndpoint[]>({ queryKey: webhooksKey, select: (list) => list.endpoints });
  const [created, setCreated] = useState<WithSecret | undefined>();
  const now = Date.now();

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Webhooks</CardTitle>
        <CardDescription>
          Webhooks tell your own server the moment something happens, signed so it can tell them from forgeries; you can have up to{' '}
          {WEBHOOKS_PER_USER_MAX} endpoints.
        </CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        {created ? (
          <SigningSecretShown secret={created.secret} intro={`${created.endpoint.url} is ready.`} onDone={() => setCreated(undefined)} />
        ) : (
          <NewEndpointForm onCreated={setCreated} />
        )}
        <QueryList
          query={query}
          label="Your webhook endpoints"
          failed="Could not load your webhook endpoints"
          empty="No webhook endpoints yet."
        >
          {(endpoint) => <EndpointItem key={endpoint.id} endpoint={endpoint} now={now} />}
        </QueryList>
      </CardContent>
    </Card>
  );
}
