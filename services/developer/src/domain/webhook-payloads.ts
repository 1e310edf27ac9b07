import type { EventData, EventEnvelope, EventType } from '@clipit/contracts';
import type { WebhookEvent } from '@clipit/field-rules';

// What a webhook says of each platform event (ADR 0053): its own stable shapes, with the words a
// receiver needs and nothing internal (no wallet checks, no moderators' names). The body is
// `{ type, timestamp, data }`, as the Standard Webhooks specification recommends.

/** A platform event as a webhook: whose it is, which webhook event, and the body's data. */
export interface WebhookMessage {
  ownerId: string;
  type: WebhookEvent;
  data: Record<string, unknown>;
}

type Mapper<T extends EventType> = (data: EventData<T>) => WebhookMessage;

const submission =
  (type: 'submission.approved' | 'submission.rejected') =>
  ({ submission: s }: EventData<'submission.approved'>): WebhookMessage => ({
    ownerId: s.userId,
    type,
    data: {
      submissionId: s.id,
      name: s.name,
      postUrl: s.url,
      status: s.status,
      rejectedReason: s.rejectedReason,
      approvedAt: s.approvedAt,
      views: s.views,
    },
  });

const campaign = (c: EventData<'campaign.completed'>['campaign']) => ({
  campaignId: c.id,
  title: c.title,
  status: c.status,
  targetViews: c.targetViews,
  deliveredViews: c.deliveredViews,
});

/** The platform events a webhook is made from, and how. */
export const WEBHOOK_SOURCES = {
  'submission.approved': submission('submission.approved'),
  'submission.rejected': submission('submission.rejected'),
  'rewards.payout-paid': (p) => ({
    ownerId: p.userId,
    type: 'payout.sent',
    data: {
      payoutId: p.payoutId,
      amount: p.amount,
      walletAddress: p.walletAddress,
      txSignature: p.txHash,
      periodStart: p.periodStart,
      periodEnd: p.periodEnd,
      paidAt: p.at,
    },
  }),
  'campaign.progress': ({ campaign: c, percent, deliveredViews, targetViews }) => ({
    ownerId: c.streamerId,
    type: 'campaign.progress',
    data: { ...campaign(c), percent, deliveredViews, targetViews },
  }),
  'campaign.completed': ({ campaign: c }) => ({
    ownerId: c.streamerId,
    type: 'campaign.completed',
    data: { ...campaign(c), completedAt: c.completedAt },
  }),
  'appeal.decided': ({ appeal: a }) => ({
    ownerId: a.userId,
    type: 'appeal.decided',
    data: {
      appealId: a.appealId,
      submissionId: a.submissionId,
      kind: a.kind,
      outcome: a.decision?.outcome ?? null,
      reason: a.decision?.reason ?? null,
      decidedAt: a.decision?.at ?? null,
    },
  }),
} satisfies { [T in EventType]?: Mapper<T> };

export type WebhookSourceType = keyof typeof WEBHOOK_SOURCES;

/** The webhook an event makes, with its body as sent (the event's time is the body's `timestamp`). */
export function webhookOf<T extends WebhookSourceType>(event: EventEnvelope<T, EventData<T>>): WebhookMessage & { body: string } {
  const message = (WEBHOOK_SOURCES[event.type] as Mapper<T>)(event.data);
  return { ...message, body: JSON.stringify({ type: message.type, timestamp: event.occurredAt, data: message.data }) };
}
