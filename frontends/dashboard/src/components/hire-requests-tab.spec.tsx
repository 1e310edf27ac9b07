import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import type { HireRequest } from '@clipit/web-api';
import { hireAnswer, hiresAnswer, USER_ID } from '../testing/fixtures.js';
import { HireRequestsTab } from './hire-requests-tab.js';

const pendingHire = hireAnswer();
const acceptedHire = hireAnswer({
  id: 'h-2',
  clientName: 'Viral Brand',
  clientEmail: 'viral@example.com',
  budget: null,
  urgency: 'low',
  preferredContact: 'email',
  contactInfo: 'viral@example.com',
  projectDescription: 'Viral Marketing: a custom campaign planned together.',
  status: 'accepted',
  clipperNotes: 'Booked a call for Monday',
});
const declinedHire = hireAnswer({ id: 'h-3', clientName: 'Nope Inc', status: 'declined' });

/** Campaigns as the tab sees it: the requests, answered like the real one (pending → accepted / declined → completed). */
function campaigns(start: HireRequest[] = [pendingHire, acceptedHire, declinedHire], refuse?: Reply) {
  let hires = start;
  return fakeGateway((call: Call) => {
    if (call.method === 'GET' && call.url === '/api/hires') return { json: hiresAnswer(hires) };
    if (call.method === 'GET' && call.url === '/api/hires?status=pending')
      return { json: hiresAnswer(hires.filter((h) => h.status === 'pending')) };
    if (refuse) return refuse;
    const [, id, action] = /^\/api\/hires\/([^/]+)\/(accept|decline|complete)$/.exec(call.url) ?? [];
    const status = ({ accept: 'accepted', decline: 'declined', complete: 'completed' } as const)[action as 'accept'];
    const notes = (call.body as { clipperNotes?: string }).clipperNotes ?? null;
    hires = hires.map((h) => (h.id === id ? { ...h, status, clipperNotes: notes ?? h.clipperNotes } : h));
    return { json: hires.find((h) => h.id === id) };
  });
}

const items = async () => within(await screen.findByRole('list', { name: 'Hire requests' })).getAllByRole('listitem');

describe('the Hire Requests tab (ADR 0027)', () => {
  it('lists each request: client, email, contact, urgency, budget, description, status and date', async () => {
    campaigns();
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    const [pending, accepted, declined] = await items();
    expect(within(pending!).getByRole('heading', { name: 'Brand Co' })).toBeVisible();
    expect(within(pending!).getByRole('link', { name: 'brand@example.com' })).toHaveAttribute('href', 'mailto:brand@example.com');
    expect(pending).toHaveTextContent('Telegram: @brandco');
    expect(pending).toHaveTextContent('High (ASAP)');
    expect(pending).toHaveTextContent('$40');
    expect(pending).toHaveTextContent('Speed Pack: 7 clips delivered within 24 hours ($40).');
    expect(pending).toHaveTextContent(/Nov 22, 2026 • \d{1,2}:00 (AM|PM)/);
    expect(within(pending!).getByText('Pending')).toHaveClass('clip-badge--warning');
    expect(within(pending!).getByRole('button', { name: 'Accept' })).toBeVisible();
    expect(within(pending!).getByRole('button', { name: 'Decline' })).toBeVisible();

    expect(accepted).toHaveTextContent('Call to discuss');
    expect(accepted).toHaveTextContent('Email: viral@example.com');
    expect(accepted).toHaveTextContent('Low (no rush)');
    expect(accepted).toHaveTextContent('Your notes: Booked a call for Monday');
    expect(within(accepted!).getByText('Accepted')).toHaveClass('clip-badge--success');
    expect(within(accepted!).getByRole('button', { name: 'Mark Completed' })).toBeVisible();
    expect(within(accepted!).queryByRole('button', { name: 'Accept' })).toBeNull();

    expect(within(declined!).getByText('Declined')).toBeVisible();
    expect(within(declined!).queryByRole('button')).toBeNull();
  });

  it("says 'No hire requests yet' when there are none", async () => {
    campaigns([]);
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    expect(await screen.findByRole('heading', { name: 'No hire requests yet' })).toBeVisible();
  });

  it('shows skeletons while loading and the error when the list fails', async () => {
    let answer: (reply: Reply) => void = () => undefined;
    fakeGateway(() => new Promise<Reply>((resolve) => (answer = resolve)));
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    answer({ status: 503, text: 'Service temporarily unavailable' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Hire requests are unavailable right now. Error: 503: Service temporarily unavailable',
    );
  });

  it('accepts a pending request with no notes (an empty body), toasts and reads the list again', async () => {
    const calls = campaigns();
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    const [pending] = await items();
    await userEvent.click(within(pending!).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Hire request accepted')).toBeVisible();
    expect(calls.writes()).toEqual([{ method: 'POST', url: '/api/hires/h-1/accept', body: {} }]);
    await waitFor(async () => expect(within((await items())[0]!).getByText('Accepted')).toBeVisible());
  });

  it('declines with the notes written', async () => {
    const calls = campaigns();
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    const [pending] = await items();
    await userEvent.type(within(pending!).getByRole('textbox', { name: 'Notes for the client (optional)' }), '  Fully booked this week ');
    await userEvent.click(within(pending!).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Hire request declined')).toBeVisible();
    expect(calls.writes()).toEqual([{ method: 'POST', url: '/api/hires/h-1/decline', body: { clipperNotes: 'Fully booked this week' } }]);
  });

  it('marks an accepted request completed', async () => {
    const calls = campaigns();
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    const [, accepted] = await items();
    await userEvent.type(within(accepted!).getByRole('textbox', { name: 'Notes for the client (optional)' }), 'Delivered 7 clips');
    await userEvent.click(within(accepted!).getByRole('button', { name: 'Mark Completed' }));
    expect(await screen.findByText('Hire marked completed')).toBeVisible();
    expect(calls.writes()).toEqual([{ method: 'POST', url: '/api/hires/h-2/complete', body: { clipperNotes: 'Delivered 7 clips' } }]);
    await waitFor(async () => expect(within((await items())[1]!).getByText('Completed')).toBeVisible());
  });

  it("toasts a refusal with the server's text", async () => {
    campaigns(undefined, { status: 409, text: 'This hire request has already been answered' });
    renderScreen(<HireRequestsTab userId={USER_ID} />);
    const [pending] = await items();
    await userEvent.click(within(pending!).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Failed to accept hire request')).toBeVisible();
    expect(screen.getByText('This hire request has already been answered')).toBeVisible();
  });
});
