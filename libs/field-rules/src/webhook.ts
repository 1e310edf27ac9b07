// Webhook endpoints (issue 37, ADR 0053): the dashboard's form, the gateway and the developer service check
// them alike. Where a delivery may go is checked again, after DNS, by the worker that sends it.

/** What an endpoint may subscribe to: each is about the owner's own clips, payouts, campaigns or appeals. */
export const WEBHOOK_EVENTS = [
  'submission.approved',
  'submission.rejected',
  'payout.sent',
  'campaign.progress',
  'campaign.completed',
  'appeal.decided',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_URL_MAX = 2048;
/** Endpoints a user may have at once. */
export const WEBHOOKS_PER_USER_MAX = 10;
/** How long a rotated-out secret still signs deliveries beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** An endpoint whose deliveries keep failing this long is disabled, and its owner told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Please give the endpoint URL',
  urlInvalid: 'The endpoint must be a full URL, such as https://example.com/webhooks',
  urlTooLong: `The endpoint URL must be at most ${WEBHOOK_URL_MAX.toLocaleString('en-US')} characters`,
  urlNotHttps: 'The endpoint must use https',
  urlCredentials: 'The endpoint URL must not carry a user name or password',
  urlPrivate: 'The endpoint must be on the public internet, not a private or local address',
  eventsRequired: 'Choose at least one event',
  badEvent: `Events must be among ${WEBHOOK_EVENTS.join(', ')}`,
  tooManyEndpoints: `You can have at most ${WEBHOOKS_PER_USER_MAX} webhook endpoints; delete one first`,
  endpointNotFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  invalidEndpointId: 'Invalid endpoint id',
  invalidDeliveryId: 'Invalid delivery id',
  notDisabled: 'This endpoint is not disabled',
} as const;

type Checked<T> = ({ error?: undefined } & T) | { error: string };

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** The events as stored: each once, in the order of WEBHOOK_EVENTS; `error` when none or one is unknown. */
export function checkWebhookEvents(raw: unknown): Checked<{ events: WebhookEvent[] }> {
  if (!Array.isArray(raw) || raw.length === 0) return { error: WEBHOOK_MESSAGES.eventsRequired };
  if (!raw.every(isWebhookEvent)) return { error: WEBHOOK_MESSAGES.badEvent };
  return { events: WEBHOOK_EVENTS.filter((event) => raw.includes(event)) };
}

/** Host names that always name this machine or its network, whatever DNS says. */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.(localhost|local|internal|home\.arpa)$/i;

/** Whether `host` (a URL's hostname: an IPv4 literal, a bracketed IPv6 literal or a name) is a loopback one. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return /^localhost$|\.localhost$/.test(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1';
}

/**
 * Whether `host` is a literal address in a range no endpoint may be in, or a local-only name: loopback,
 * private, link-local, unique-local, unspecified, carrier-grade NAT. Names are checked again after DNS
 * by the worker; this refuses what is plainly local when the endpoint is made.
 */
export function isPlainlyPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOCAL_NAMES.test(h)) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (!h.includes(':')) return false;
  return h === '::' || h === '::1' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || /^::ffff:/.test(h);
}

/**
 * The endpoint URL as stored: an absolute https URL (http only for a loopback receiver when
 * `allowLoopback`, which tests and local development set), without credentials, on no plainly private
 * address; the fragment dropped.
 */
export function checkWebhookUrl(raw: unknown, opts: { allowLoopback: boolean }): Checked<{ url: string }> {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) return { error: WEBHOOK_MESSAGES.urlRequired };
  if (text.length > WEBHOOK_URL_MAX) return { error: WEBHOOK_MESSAGES.urlTooLong };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: WEBHOOK_MESSAGES.urlInvalid };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: WEBHOOK_MESSAGES.urlInvalid };
  if (!url.hostname) return { error: WEBHOOK_MESSAGES.urlInvalid };
  if (url.username || url.password) return { error: WEBHOOK_MESSAGES.urlCredentials };
  const loopbackAllowed = opts.allowLoopback && isLoopbackHost(url.hostname);
  if (!loopbackAllowed && isPlainlyPrivateHost(url.hostname)) return { error: WEBHOOK_MESSAGES.urlPrivate };
  if (url.protocol === 'http:' && !loopbackAllowed) return { error: WEBHOOK_MESSAGES.urlNotHttps };
  url.hash = '';
  return { url: url.toString() };
}
