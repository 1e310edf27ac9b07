/** Injection tokens of what the webhook worker's start-up opens outside Nest. */
/** The outbound HTTP client (WebhookSender): the address rules, no redirects, one deadline per attempt. */
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');
