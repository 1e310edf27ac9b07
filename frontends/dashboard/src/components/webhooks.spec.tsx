import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { WEBHOOK_MESSAGES } from '@clipit/field-rules';
import { formatDate } from '@clipit/ui';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import { expectListStates, held, stubClipboard, toasts } from '../testing/developer-access.test.js';
import { webhookAnswer, webhookDeliveryAnswer } from '../testing/fixtures.js';
import { WebhooksCard, type WebhookDelivery, type WebhookEndpoint } from './webhooks.js';

const HOUR = 3_600_000;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROTATED = 'whsec_Zq1w2e3r4t5y6u7i8o9p0aAsSdDfFgGh';
const NEW_ID = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';
const ENDPOINT = webhookAnswer();
const URL_OF = ENDPOINT.url;
/** The fake's page of the delivery log (the gateway's is 50): small, so a test can page. */
const PAGE = 2;

const writeText = stubClipboard();

interface Options {
  /** Answers every write instead. */
  refuse?: Reply;
  /** A write waits for it. */
  gate?: Promise<void>;
  /** Each endpoint's log, newest first. */
  deliveries?: Record<string, WebhookDelivery[]>;
}

/**
 * Developer as the card sees it through the gateway: the user's endpoints and their logs, changed by the
 * writes like the real one (create, delete, rotate with the old secret kept 24 h, enable, redeliver), the log
 * served PAGE at a time with a cursor.
 */
function developer(start: WebhookEndpoint[] = [ENDPOINT], { refuse, gate, deliveries = {} }: Options = {}) {
  let endpoints = start;
  const logs = new Map(Object.entries(deliveries));
  const notFound: Reply = { status: 404, text: WEBHOOK_MESSAGES.endpointNotFound };
  return fakeGateway(async (call) => {
    const [path, query = ''] = call.url.split('?');
    if (call.method === 'GET' && path === '/api/webhooks') return { json: { endpoints } };
    const log = /^\/api\/webhooks\/([^/]+)\/deliveries$/.exec(path!);
    if (call.method === 'GET' && log) {
      const all = logs.get(log[1]!) ?? [];
      const from = Number(new URLSearchParams(query).get('cursor') ?? '0');
      const next = from + PAGE < all.length ? String(from + PAGE) : null;
      return { json: { deliveries: all.slice(from, from + PAGE), nextCursor: next } };
    }
    if (gate) await gate;
    if (refuse) return refuse;
    if (call.method === 'POST' && path === '/api/webhooks') {
      const body = call.body as { url: string; events: WebhookEndpoint['events'] };
      const made = webhookAnswer({ id: NEW_ID, ...body, createdAt: new Date().toISOString() });
      endpoints = [made, ...endpoints];
      return { status: 201, json: { endpoint: made, secret: SECRET } };
    }
    const [, id, action, deliveryId, deliveryAction] = /^\/api\/webhooks\/([^/]+)(?:\/([^/]+)(?:\/([^/]+)\/([^/]+))?)?$/.exec(path!) ?? [];
    const endpoint = endpoints.find((e) => e.id === id);
    if (!endpoint) return notFound;
    const replace = (changed: WebhookEndpoint) => {
      endpoints = endpoints.map((e) => (e.id === id ? changed : e));
      return changed;
    };
    if (call.method === 'DELETE' && action === undefined) {
      endpoints = endpoints.filter((e) => e.id !== id);
      return { status: 204 };
    }
    if (call.method === 'POST' && action === 'rotate-secret') {
      const changed = replace({ ...endpoint, previousSecretUntil: new Date(Date.now() + 24 * HOUR).toISOString() });
      return { json: { endpoint: changed, secret: ROTATED } };
    }
    if (call.method === 'POST' && action === 'enable') {
      if (endpoint.disabledAt === null) return { status: 409, text: WEBHOOK_MESSAGES.notDisabled };
      return { json: replace({ ...endpoint, disabledAt: null, disabledReason: null, failingSince: null }) };
    }
    if (call.method === 'POST' && action === 'deliveries' && deliveryAction === 'redeliver') {
      const list = logs.get(id!) ?? [];
      const delivery = list.find((d) => d.id === deliveryId);
      if (!delivery) return { status: 404, text: WEBHOOK_MESSAGES.deliveryNotFound };
      const queued: WebhookDelivery = { ...delivery, status: 'pending', nextAttemptAt: null, deliveredAt: null };
      logs.set(
        id!,
        list.map((d) => (d.id === deliveryId ? queued : d)),
      );
      replace({ ...endpoint, pendingDeliveries: endpoint.pendingDeliveries + 1 });
      return { status: 202, json: queued };
    }
    return notFound;
  });
}

const list = () => screen.findByRole('list', { name: 'Your webhook endpoints' });
/** The endpoints' items, without the deliveries of an open log inside them. */
const items = async () => {
  const endpoints = await list();
  return within(endpoints)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === endpoints);
};
const form = () => screen.getByRole('form', { name: 'Add a webhook endpoint' });
const urlField = () => within(form()).getByRole('textbox', { name: 'Endpoint URL' });
const events = () => within(form()).getByRole('group', { name: 'Events' });
const create = () => within(form()).getByRole('button', { name: 'Create Endpoint' });
const reads = (calls: Call[], url = '/api/webhooks') => calls.filter((c) => c.method === 'GET' && c.url === url).length;

describe('the Webhooks card (issue 37, ADR 0053)', () => {
  it('lists each endpoint: URL, event badges, creation, deliveries waiting, and whether it is failing', async () => {
    const failingSince = '2026-11-26T08:00:00.000Z';
    developer([
      webhookAnswer({ pendingDeliveries: 3, failingSince }),
      webhookAnswer({ id: 'w-2', url: 'https://ops.example.org/in', events: ['campaign.progress'], pendingDeliveries: 1 }),
    ]);
    renderScreen(<WebhooksCard />);
    expect(screen.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();

    const [failing, healthy] = await items();
    expect(within(failing!).getByRole('heading', { name: URL_OF, level: 3 })).toBeVisible();
    expect(within(failing!).getByText('submission.approved')).toHaveClass('clip-badge');
    expect(within(failing!).getByText('payout.sent')).toHaveClass('clip-badge');
    expect(within(failing!).queryByText('campaign.progress')).toBeNull();
    expect(failing).toHaveTextContent(`Created ${formatDate(ENDPOINT.createdAt)} · 3 deliveries waiting`);
    expect(within(failing!).getByRole('note', { name: `${URL_OF} is failing` })).toHaveTextContent(
      `Failing since ${formatDate(failingSince)}`,
    );
    expect(within(failing!).queryByRole('button', { name: 'Enable' })).toBeNull();
    expect(failing).not.toHaveTextContent('Old secret');

    expect(within(healthy!).getByRole('heading', { name: 'https://ops.example.org/in' })).toBeVisible();
    expect(healthy).toHaveTextContent('1 delivery waiting');
    expect(healthy).not.toHaveTextContent('Failing');
    expect(within(healthy!).queryByRole('note')).toBeNull();
  });

  it("says when there are none, shows a skeleton while loading, and the server's text when the list fails", () =>
    expectListStates(<WebhooksCard />, {
      serveNone: () => developer([]),
      list: 'Your webhook endpoints',
      empty: 'No webhook endpoints yet.',
      failed: 'Could not load your webhook endpoints',
    }));

  it('describes each event beside its checkbox, in the rules’ order', async () => {
    developer();
    renderScreen(<WebhooksCard />);
    await list();
    expect(
      within(events())
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['submission.approved', 'submission.rejected', 'payout.sent', 'campaign.progress', 'campaign.completed', 'appeal.decided']);
    expect(within(events()).getByRole('checkbox', { name: 'submission.approved' })).toHaveAccessibleDescription(
      'A clip of yours was approved',
    );
    expect(within(events()).getByRole('checkbox', { name: 'payout.sent' })).toHaveAccessibleDescription('A payout was sent to your wallet');
    expect(within(events()).getByRole('checkbox', { name: 'campaign.progress' })).toHaveAccessibleDescription(
      "Your campaign's delivered views passed another 10 %",
    );
  });

  it("shows the rules' words under their fields and sends nothing: no URL, no event, http, a private or local address", async () => {
    const gateway = developer();
    renderScreen(<WebhooksCard />);
    await list();
    await userEvent.click(create());
    expect(urlField()).toHaveAccessibleDescription(WEBHOOK_MESSAGES.urlRequired);
    expect(events()).toHaveAccessibleDescription(WEBHOOK_MESSAGES.eventsRequired);

    await userEvent.click(within(events()).getByRole('checkbox', { name: 'payout.sent' }));
    expect(events()).not.toHaveAccessibleDescription(WEBHOOK_MESSAGES.eventsRequired);
    for (const [typed, words] of [
      ['hooks.example.com', WEBHOOK_MESSAGES.urlInvalid],
      ['http://hooks.example.com/in', WEBHOOK_MESSAGES.urlNotHttps],
      ['https://192.168.1.20/in', WEBHOOK_MESSAGES.urlPrivate],
      // The browser never allows a loopback receiver, whatever the server's test configuration does.
      ['http://localhost:4000/in', WEBHOOK_MESSAGES.urlPrivate],
      ['https://me:pw@hooks.example.com/in', WEBHOOK_MESSAGES.urlCredentials],
    ] as const) {
      await userEvent.clear(urlField());
      await userEvent.type(urlField(), typed);
      // Typing clears the field's error until the next try.
      expect(urlField()).not.toHaveAccessibleDescription();
      await userEvent.click(create());
      expect(urlField()).toHaveAccessibleDescription(words);
    }
    expect(events()).not.toHaveAccessibleDescription(WEBHOOK_MESSAGES.eventsRequired);
    expect(gateway.writes()).toEqual([]);
  });

  it('creates an endpoint: the payload, the secret shown once with Copy and how to verify, the list refreshed, Done hides it for good', async () => {
    const { gate, release } = held();
    const gateway = developer(undefined, { gate });
    renderScreen(<WebhooksCard />);
    await list();
    await userEvent.type(urlField(), '  https://new.example.com/hooks#part ');
    // Ticked out of order: sent in the rules' order.
    await userEvent.click(within(events()).getByRole('checkbox', { name: 'appeal.decided' }));
    await userEvent.click(within(events()).getByRole('checkbox', { name: 'submission.rejected' }));
    await userEvent.click(create());
    expect(within(form()).getByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Your signing secret' })).toBeNull();
    expect(gateway.writes()).toEqual([
      {
        method: 'POST',
        url: '/api/webhooks',
        body: { url: 'https://new.example.com/hooks', events: ['submission.rejected', 'appeal.decided'] },
      },
    ]);
    const readsBefore = reads(gateway.calls);
    release();

    const shown = await screen.findByRole('region', { name: 'Your signing secret' });
    const secret = within(shown).getByRole('textbox', { name: 'Signing Secret' });
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveAttribute('readonly');
    expect(secret).toHaveFocus();
    expect(shown).toHaveTextContent('https://new.example.com/hooks is ready. Copy the secret now: it will not be shown again.');
    expect(shown).toHaveTextContent('webhook-signature');
    expect(shown).toHaveTextContent('webhook-id');
    expect(shown).toHaveTextContent('webhook-timestamp');
    expect(within(shown).getByRole('link', { name: 'Standard Webhooks' })).toHaveAttribute('href', 'https://www.standardwebhooks.com/');
    expect(screen.queryByRole('form', { name: 'Add a webhook endpoint' })).toBeNull();

    await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await within(toasts()).findByText('Copied')).toBeVisible();

    await waitFor(async () => expect(await items()).toHaveLength(2));
    expect(reads(gateway.calls)).toBeGreaterThan(readsBefore);
    const made = (await items())[0]!;
    expect(within(made).getByRole('heading', { name: 'https://new.example.com/hooks' })).toBeVisible();
    expect(within(made).getByText('submission.rejected')).toHaveClass('clip-badge');
    expect(within(made).getByText('appeal.decided')).toHaveClass('clip-badge');
    expect(made).toHaveTextContent('0 deliveries waiting');
    // The list never shows the secret.
    expect(within(await list()).queryByDisplayValue(SECRET)).toBeNull();

    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('region', { name: 'Your signing secret' })).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(urlField()).toHaveValue('');
    expect(within(events()).getByRole('checkbox', { name: 'appeal.decided' })).not.toBeChecked();
    expect(gateway.writes()).toHaveLength(1);
  });

  it("shows a refusal's text: the endpoint limit in a toast, a rule's words under its field", async () => {
    developer(undefined, { refuse: { status: 409, text: WEBHOOK_MESSAGES.tooManyEndpoints } });
    const first = renderScreen(<WebhooksCard />);
    await list();
    await userEvent.type(urlField(), 'https://eleventh.example.com/in');
    await userEvent.click(within(events()).getByRole('checkbox', { name: 'payout.sent' }));
    await userEvent.click(create());
    expect(await within(toasts()).findByText('Could not create the endpoint')).toBeVisible();
    expect(within(toasts()).getByText('You can have at most 10 webhook endpoints; delete one first')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Your signing secret' })).toBeNull();
    // What was typed stays, to try again once an endpoint is deleted.
    expect(urlField()).toHaveValue('https://eleventh.example.com/in');
    expect(urlField()).not.toHaveAccessibleDescription(WEBHOOK_MESSAGES.tooManyEndpoints);
    first.unmount();

    // The server looks the name up; the browser cannot know it is private.
    developer(undefined, { refuse: { status: 400, text: WEBHOOK_MESSAGES.urlPrivate } });
    renderScreen(<WebhooksCard />);
    await list();
    await userEvent.type(urlField(), 'https://intranet.example.com/in');
    await userEvent.click(within(events()).getByRole('checkbox', { name: 'payout.sent' }));
    await userEvent.click(create());
    await waitFor(() => expect(urlField()).toHaveAccessibleDescription(WEBHOOK_MESSAGES.urlPrivate));
    expect(within(toasts()).queryByText('Could not create the endpoint')).toBeNull();
  });

  it('tells of a disabled endpoint with its reason, and Enable sends what waited: the notice goes', async () => {
    const disabledAt = '2026-11-29T07:30:00.000Z';
    const reason = 'Failing since Nov 26: HTTP 503 from the receiver';
    const gateway = developer([
      webhookAnswer({ disabledAt, disabledReason: reason, failingSince: '2026-11-26T07:30:00.000Z', pendingDeliveries: 5 }),
    ]);
    renderScreen(<WebhooksCard />);
    const [endpoint] = await items();
    const notice = within(endpoint!).getByRole('note', { name: `${URL_OF} is disabled` });
    expect(notice).toHaveTextContent(`Disabled on ${formatDate(disabledAt)} after failing for 3 days: ${reason}`);
    expect(notice).toHaveClass('clipit-dash-note--error');
    // Disabled says more than failing: the failing line is not shown beside it.
    expect(within(endpoint!).queryByRole('note', { name: `${URL_OF} is failing` })).toBeNull();

    await userEvent.click(within(notice).getByRole('button', { name: 'Enable' }));
    expect(await within(toasts()).findByText('Endpoint enabled')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: `/api/webhooks/${ENDPOINT.id}/enable`, body: undefined }]);
    await waitFor(() => expect(screen.queryByRole('note', { name: `${URL_OF} is disabled` })).toBeNull());
    expect(screen.queryByRole('note', { name: `${URL_OF} is failing` })).toBeNull();
  });

  it("rotates the secret only once confirmed: the new one shown once, and the old one's last hour", async () => {
    const gateway = developer();
    renderScreen(<WebhooksCard />);
    const endpoint = async () => (await items())[0]!;
    await userEvent.click(within(await endpoint()).getByRole('button', { name: `Rotate secret of ${URL_OF}` }));
    const confirm = within(await endpoint()).getByRole('group', { name: `Rotate the secret of ${URL_OF}?` });
    expect(confirm).toHaveTextContent('the old one keeps signing beside it for 24 hours');
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(within(await endpoint()).getByRole('button', { name: `Rotate secret of ${URL_OF}` })).toHaveFocus();
    expect(gateway.writes()).toEqual([]);

    await userEvent.click(within(await endpoint()).getByRole('button', { name: `Rotate secret of ${URL_OF}` }));
    const before = Date.now();
    await userEvent.click(within(await endpoint()).getByRole('button', { name: 'Rotate now' }));
    const shown = await within(await endpoint()).findByRole('region', { name: 'Your signing secret' });
    expect(within(shown).getByRole('textbox', { name: 'Signing Secret' })).toHaveValue(ROTATED);
    expect(within(shown).getByRole('textbox', { name: 'Signing Secret' })).toHaveFocus();
    expect(shown).toHaveTextContent(`A new signing secret for ${URL_OF}.`);
    expect(gateway.writes()).toEqual([{ method: 'POST', url: `/api/webhooks/${ENDPOINT.id}/rotate-secret`, body: undefined }]);

    const until = new Date(before + 24 * HOUR);
    // The fake sets it a moment after `before`: the same minute, or the next.
    const shownUntil = [formatDate(until), formatDate(until.getTime() + 60_000)];
    const line = within(await endpoint()).getByText(/^Old secret valid until /);
    expect(shownUntil.map((d) => `Old secret valid until ${d}`)).toContain(line.textContent);

    await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(ROTATED);
    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(ROTATED)).toBeNull();
    expect(within(await endpoint()).getByRole('button', { name: `Rotate secret of ${URL_OF}` })).toHaveFocus();
  });

  it('does not speak of an old secret whose overlap is over', async () => {
    developer([webhookAnswer({ previousSecretUntil: new Date(Date.now() - HOUR).toISOString() })]);
    renderScreen(<WebhooksCard />);
    const [endpoint] = await items();
    expect(endpoint).not.toHaveTextContent('Old secret');
  });

  it('toasts a refused rotation and shows no secret', async () => {
    developer(undefined, { refuse: { status: 503, text: 'Service temporarily unavailable' } });
    renderScreen(<WebhooksCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: `Rotate secret of ${URL_OF}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Rotate now' }));
    expect(await within(toasts()).findByText('Could not rotate the secret')).toBeVisible();
    expect(within(toasts()).getByText('Service temporarily unavailable')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Your signing secret' })).toBeNull();
  });

  it("deletes an endpoint only once confirmed: 'Endpoint deleted', and it leaves the list", async () => {
    const other = webhookAnswer({ id: 'w-2', url: 'https://ops.example.org/in' });
    const gateway = developer([ENDPOINT, other]);
    renderScreen(<WebhooksCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: `Delete ${URL_OF}` }));
    const confirm = screen.getByRole('group', { name: `Delete ${URL_OF}?` });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: `Delete ${URL_OF}` })).toHaveFocus();
    expect(gateway.writes()).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: `Delete ${URL_OF}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete endpoint' }));
    expect(await within(toasts()).findByText('Endpoint deleted')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'DELETE', url: `/api/webhooks/${ENDPOINT.id}`, body: undefined }]);
    await waitFor(async () => expect(await items()).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: URL_OF })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: `Delete ${other.url}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText('No webhook endpoints yet.')).toBeVisible();
  });

  it('opens the delivery log: status, attempts, the last code or error, latency, the answer, Redeliver, Load more', async () => {
    const retryAt = '2026-11-27T10:30:00.000Z';
    const log = [
      webhookDeliveryAnswer({ id: 'd-1', eventType: 'payout.sent', createdAt: '2026-11-27T10:00:00.000Z' }),
      webhookDeliveryAnswer({
        id: 'd-2',
        eventType: 'submission.approved',
        status: 'pending',
        attempts: 3,
        lastStatusCode: null,
        lastError: 'Connection refused',
        latencyMs: null,
        responseExcerpt: null,
        deliveredAt: null,
        nextAttemptAt: retryAt,
        createdAt: '2026-11-27T09:30:00.000Z',
      }),
      webhookDeliveryAnswer({
        id: 'd-3',
        eventType: 'campaign.progress',
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        latencyMs: null,
        responseExcerpt: null,
        lastAttemptAt: null,
        deliveredAt: null,
        nextAttemptAt: '2026-11-27T09:00:05.000Z',
        createdAt: '2026-11-27T09:00:00.000Z',
      }),
    ];
    const gateway = developer(undefined, { deliveries: { [ENDPOINT.id]: log } });
    renderScreen(<WebhooksCard />);
    const toggle = within(await list()).getByRole('button', { name: `Deliveries to ${URL_OF}` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Closed, the log is not read.
    expect(reads(gateway.calls, `/api/webhooks/${ENDPOINT.id}/deliveries`)).toBe(0);

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const deliveries = await screen.findByRole('list', { name: `Deliveries to ${URL_OF}` });
    const [delivered, retrying] = within(deliveries).getAllByRole('listitem');
    expect(within(delivered!).getByRole('heading', { name: 'payout.sent' })).toBeVisible();
    expect(within(delivered!).getByText('Delivered')).toHaveClass('clip-badge--success');
    expect(delivered).toHaveTextContent('1 attempt · HTTP 200 · 84 ms');
    expect(delivered).toHaveTextContent(`Created ${formatDate('2026-11-27T10:00:00.000Z')}`);
    expect(delivered).not.toHaveTextContent('retrying');

    expect(within(retrying!).getByText('Pending')).toHaveClass('clip-badge--warning');
    expect(retrying).toHaveTextContent(`retrying at ${formatDate(retryAt)}`);
    expect(retrying).toHaveTextContent('3 attempts · Connection refused');
    expect(retrying).not.toHaveTextContent(' ms');
    expect(within(retrying!).queryByRole('button', { name: 'Show response' })).toBeNull();

    // The receiver's answer behind a disclosure.
    const show = within(delivered!).getByRole('button', { name: 'Show response' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    expect(within(delivered!).queryByText('{"ok":true}')).toBeNull();
    await userEvent.click(show);
    expect(within(delivered!).getByRole('button', { name: 'Hide response' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(delivered!).getByText('{"ok":true}')).toBeVisible();

    // Redeliver: the route is called, the log read again.
    const logReads = reads(gateway.calls, `/api/webhooks/${ENDPOINT.id}/deliveries`);
    await userEvent.click(
      within(delivered!).getByRole('button', { name: `Redeliver payout.sent from ${formatDate('2026-11-27T10:00:00.000Z')}` }),
    );
    expect(await within(toasts()).findByText('Delivery queued again')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: `/api/webhooks/${ENDPOINT.id}/deliveries/d-1/redeliver`, body: undefined }]);
    await waitFor(() => expect(reads(gateway.calls, `/api/webhooks/${ENDPOINT.id}/deliveries`)).toBeGreaterThan(logReads));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: `Deliveries to ${URL_OF}` })).getAllByText('Pending')).toHaveLength(2),
    );
    expect(await list()).toHaveTextContent('1 delivery waiting');

    // The next page, from the cursor; no Load more once the last is in.
    await userEvent.click(screen.getByRole('button', { name: 'Load more deliveries' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: `Deliveries to ${URL_OF}` })).getAllByRole('listitem')).toHaveLength(3),
    );
    expect(gateway.calls.some((c) => c.method === 'GET' && c.url === `/api/webhooks/${ENDPOINT.id}/deliveries?cursor=2`)).toBe(true);
    const never = within(screen.getByRole('list', { name: `Deliveries to ${URL_OF}` })).getAllByRole('listitem')[2]!;
    expect(never).toHaveTextContent('0 attempts · Not tried yet');
    // Never tried: it waits its turn, it is not being retried.
    expect(never).not.toHaveTextContent('retrying');
    expect(screen.queryByRole('button', { name: 'Load more deliveries' })).toBeNull();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: `Deliveries to ${URL_OF}` })).toBeNull();
  });

  it("says when the log is empty, and the server's text when it fails; a refused redelivery is toasted", async () => {
    developer(undefined, { deliveries: {} });
    const first = renderScreen(<WebhooksCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: `Deliveries to ${URL_OF}` }));
    expect(await screen.findByText('No deliveries yet.')).toBeVisible();
    first.unmount();

    fakeGateway((call) =>
      call.url === '/api/webhooks'
        ? { json: { endpoints: [ENDPOINT] } }
        : call.method === 'GET'
          ? { status: 503, text: 'Service temporarily unavailable' }
          : { status: 404, text: WEBHOOK_MESSAGES.deliveryNotFound },
    );
    const second = renderScreen(<WebhooksCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: `Deliveries to ${URL_OF}` }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the deliveries: Service temporarily unavailable');
    second.unmount();

    developer(undefined, {
      deliveries: { [ENDPOINT.id]: [webhookDeliveryAnswer()] },
      refuse: { status: 404, text: WEBHOOK_MESSAGES.deliveryNotFound },
    });
    renderScreen(<WebhooksCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: `Deliveries to ${URL_OF}` }));
    const deliveries = await screen.findByRole('list', { name: `Deliveries to ${URL_OF}` });
    await userEvent.click(within(deliveries).getByRole('button', { name: /^Redeliver / }));
    expect(await within(toasts()).findByText('Could not redeliver')).toBeVisible();
    expect(within(toasts()).getByText(WEBHOOK_MESSAGES.deliveryNotFound)).toBeVisible();
  });
});
