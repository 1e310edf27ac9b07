import { eventEnvelopeSchema, parseEventData, subjectFor, type ApplicationSubmittedV1 } from '@clipit/contracts';
import { CLIPPER_APPLICATION_MESSAGES as M } from '@clipit/field-rules';
import { GrpcCallError, runWithCorrelation } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCampaigns, type CampaignsHarness } from '../support/campaigns-harness.js';

// Clipper job applications against the real Postgres and NATS: the rules, one pending application per
// email, the event published with the row (and never without it), keyset pages.

let h: CampaignsHarness;
let seq = 0;

beforeAll(async () => {
  h = await startCampaigns();
});
afterAll(async () => {
  await h?.stop();
});

function application(overrides: Record<string, string | undefined> = {}) {
  seq += 1;
  return {
    fullName: `Applicant ${seq}`,
    email: `applicant-${seq}-${Date.now()}@example.com`,
    experience: 'Two years cutting stream highlights for crypto channels.',
    whyJoin: 'I already clip every day and want to be paid per approved clip.',
    ...overrides,
  };
}

async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrpcCallError);
  const e = err as GrpcCallError;
  return { code: e.code, message: e.message };
}

describe('SubmitApplication', () => {
  it('stores a pending application and publishes application.submitted with the caller’s correlation id', async () => {
    const correlationId = `corr-apply-${Date.now()}`;
    const input = application({
      email: ' Mixed.Case@Example.com ',
      socialMediaHandles: '@clipper on X',
      availabilityHours: '25',
      portfolioLinks: 'https://example.com/reel',
    });
    const stored = await runWithCorrelation(correlationId, () => h.client.submitApplication(input));

    expect(stored).toMatchObject({
      fullName: input.fullName,
      email: 'mixed.case@example.com',
      socialMediaHandles: '@clipper on X',
      availabilityHours: 25,
      portfolioLinks: 'https://example.com/reel',
      status: 'pending',
    });
    expect(await h.count('SELECT count(*) FROM clipper_applications WHERE id = $1', [stored.id])).toBe(1);

    const received = await waitFor(
      () => h.events.find((e) => (e.envelope.data as ApplicationSubmittedV1).application?.id === stored.id),
      10_000,
      'application.submitted',
    );
    expect(received.subject).toBe(subjectFor('application.submitted', h.names.subjectPrefix));
    const envelope = eventEnvelopeSchema.parse(received.envelope);
    expect(envelope).toMatchObject({ type: 'application.submitted', source: 'campaigns', correlationId });
    expect(parseEventData('application.submitted', envelope.data).application).toMatchObject({
      id: stored.id,
      email: 'mixed.case@example.com',
      availabilityHours: 25,
      status: 'pending',
    });
  });

  it.each([
    [{ fullName: 'A' }, M.fullNameShort],
    [{ email: 'nope' }, M.email],
    [{ experience: 'short' }, M.experienceShort],
    [{ whyJoin: 'x'.repeat(2001) }, M.whyJoinLong],
    [{ socialMediaHandles: 'x'.repeat(501) }, M.socialMediaHandlesLong],
    [{ portfolioLinks: 'x'.repeat(1001) }, M.portfolioLinksLong],
    [{ availabilityHours: '0' }, M.availabilityLow],
    [{ availabilityHours: '169' }, M.availabilityHigh],
    [{ availabilityHours: 'ten' }, M.availabilityWhole],
  ])('refuses %j with the rule’s message and stores nothing', async (change, message) => {
    const before = await h.count('SELECT count(*) FROM clipper_applications');
    const outboxBefore = await h.count('SELECT count(*) FROM outbox');
    expect(await refusal(h.client.submitApplication(application(change)))).toEqual({ code: status.INVALID_ARGUMENT, message });
    expect(await h.count('SELECT count(*) FROM clipper_applications')).toBe(before);
    expect(await h.count('SELECT count(*) FROM outbox')).toBe(outboxBefore);
  });

  it('keeps one pending application per email, whatever its case, even when two arrive at once', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const results = await Promise.allSettled([
      h.client.submitApplication(application({ email })),
      h.client.submitApplication(application({ email: email.toUpperCase() })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as GrpcCallError;
    expect({ code: refused.code, message: refused.message }).toEqual({ code: status.ALREADY_EXISTS, message: M.alreadyPending });
    expect(await h.count('SELECT count(*) FROM clipper_applications WHERE email = $1', [email])).toBe(1);
    expect(await h.count(`SELECT count(*) FROM outbox WHERE envelope::jsonb #>> '{data,application,email}' = $1`, [email])).toBe(1);
  });

  it('takes a new application from the same email once the earlier one is reviewed', async () => {
    const email = `reviewed-${Date.now()}@example.com`;
    const first = await h.client.submitApplication(application({ email }));
    await h.db.query(`UPDATE clipper_applications SET status = 'rejected', reviewed_at = now() WHERE id = $1`, [first.id]);
    await expect(h.client.submitApplication(application({ email }))).resolves.toMatchObject({ email, status: 'pending' });
  });

  it('refuses at the table what the rules refuse, whatever path writes it', async () => {
    await expect(
      h.db.query(
        `INSERT INTO clipper_applications (id, full_name, email, experience, why_join, availability_hours) VALUES (gen_random_uuid(), 'Ok Name', 'ok@example.com', $1, $1, 500)`,
        ['x'.repeat(20)],
      ),
    ).rejects.toThrow(/check constraint/);
  });
});

describe('ListApplications', () => {
  it('pages newest first with the total, and refuses a cursor it did not write', async () => {
    for (let i = 0; i < 5; i++) await h.client.submitApplication(application());
    const total = await h.count('SELECT count(*) FROM clipper_applications');

    const first = await h.client.listApplications({ limit: 2 });
    expect(Number(first.total)).toBe(total); // int64 travels as text
    expect(first.applications).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.listApplications({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.applications.map((a) => a.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);

    const all = await h.client.listApplications({ limit: 200 });
    const created = all.applications.map((a) => Date.parse(a.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(all.applications.map((a) => a.id)).toEqual(seen);

    expect(await refusal(h.client.listApplications({ cursor: 'not-a-cursor' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid cursor',
    });
  });
});
