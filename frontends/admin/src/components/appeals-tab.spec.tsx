import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AdminAppeal } from '../lib/queries.js';
import AdminPage from '../screens/admin-page.js';
import { adminRoutes, fakeAdminGateway, restoreFetch, seedSession, TOKEN, type AdminHandler } from '../testing/admin-gateway.js';

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
});
afterEach(() => restoreFetch());

const anAppeal = (over: Partial<AdminAppeal> = {}): AdminAppeal => ({
  id: 'ap-1',
  submissionId: 's-1',
  userId: 'u-1',
  clipperHandle: 'ada',
  kind: 'rejection',
  text: 'The game is on screen from the start.',
  status: 'pending',
  postUrl: 'https://x.com/ada/status/1',
  submissionName: 'Clutch clip',
  rejectedReason: 'Not a gaming clip',
  holdReasons: [],
  decisionReason: null,
  decidedBy: null,
  decidedAt: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  ...over,
});

/** The admin page with `appeals` answered by GET /api/admin/appeals and `decide` by the decide route. */
function gatewayWith(appeals: AdminAppeal[], decide?: AdminHandler) {
  const others = adminRoutes({});
  return fakeAdminGateway((call) => {
    const path = call.url.split('?')[0]!;
    if (call.method === 'GET' && path === '/api/admin/appeals') return { json: { appeals, nextCursor: null } };
    if (call.method === 'POST' && path.startsWith('/api/admin/appeals/') && decide) return decide(call);
    return others(call);
  });
}

async function openTab() {
  renderScreen(<AdminPage />, '/admin');
  await userEvent.click(await screen.findByRole('tab', { name: 'Appeals' }));
  return screen.findByRole('list', { name: 'Appeals' });
}

describe('the Appeals tab (ADR 0051)', () => {
  it('lists each appeal with the clip, the clipper, the kind, what was appealed and their words; decided ones with the outcome', async () => {
    gatewayWith([
      anAppeal(),
      anAppeal({
        id: 'ap-2',
        submissionId: 's-2',
        kind: 'hold',
        submissionName: 'Viral clip',
        rejectedReason: null,
        holdReasons: ['Views jumped from 1,200 to 48,000 between two reads.'],
        text: 'A big account shared it.',
      }),
      anAppeal({
        id: 'ap-3',
        submissionName: 'Old clip',
        status: 'upheld',
        decisionReason: 'Still off-topic',
        decidedBy: 'tok-1',
        decidedAt: '2026-11-29T11:00:00.000Z',
      }),
    ]);
    const list = await openTab();
    const [first, second, third] = within(list).getAllByRole('article');
    const one = within(first!);
    expect(one.getByRole('link', { name: 'Clutch clip' })).toHaveAttribute('href', 'https://x.com/ada/status/1');
    expect(one.getByText('@ada')).toBeVisible();
    expect(one.getByText('Rejection')).toBeVisible();
    expect(one.getByText('Not a gaming clip')).toBeVisible();
    expect(one.getByText('The game is on screen from the start.')).toBeVisible();
    expect(one.getByRole('button', { name: 'Uphold' })).toBeVisible();
    expect(one.getByRole('button', { name: 'Overturn' })).toBeVisible();
    const two = within(second!);
    expect(two.getByText('Held earning')).toBeVisible();
    expect(two.getByText('Views jumped from 1,200 to 48,000 between two reads.')).toBeVisible();
    const three = within(third!);
    expect(three.getByText(/Still off-topic/)).toBeVisible();
    expect(three.queryByRole('button', { name: 'Uphold' })).toBeNull();
  });

  it('asks for the reason and sends the decision with the admin token', async () => {
    let decided = false;
    const gateway = gatewayWith([anAppeal()], (call) => {
      decided = true;
      return { json: anAppeal({ status: 'overturned', decisionReason: (call.body as { reason: string }).reason }) };
    });
    const list = await openTab();
    await userEvent.click(within(list).getByRole('button', { name: 'Overturn' }));
    const dialog = await screen.findByRole('dialog');
    // A reason is required, checked before anything is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Overturn' }));
    expect(await within(dialog).findByText('A reason is required')).toBeVisible();
    expect(decided).toBe(false);
    await userEvent.type(within(dialog).getByLabelText('Reason'), '  The game is visible throughout  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Overturn' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post).toEqual({
      method: 'POST',
      url: '/api/admin/appeals/ap-1/decide',
      body: { outcome: 'overturned', reason: 'The game is visible throughout' },
      authorization: `Bearer ${TOKEN}`,
    });
  });

  it("shows the server's refusal", async () => {
    gatewayWith([anAppeal()], () => ({ status: 409, text: 'This appeal has already been decided' }));
    const list = await openTab();
    await userEvent.click(within(list).getByRole('button', { name: 'Uphold' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'No');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Uphold' }));
    expect(await screen.findByText(/This appeal has already been decided/)).toBeVisible();
  });

  it('says when there is nothing to decide', async () => {
    gatewayWith([]);
    renderScreen(<AdminPage />, '/admin');
    await userEvent.click(await screen.findByRole('tab', { name: 'Appeals' }));
    expect(await screen.findByText('No appeals yet.')).toBeVisible();
  });
});
