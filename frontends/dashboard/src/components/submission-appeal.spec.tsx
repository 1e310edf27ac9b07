import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import { SubmissionAppeal, type Appeal } from './submission-appeal.js';

const REJECTED = { id: 's-2', name: 'Rejected clip', status: 'rejected' as const };
const APPROVED = { id: 's-1', name: 'Big win clip', status: 'approved' as const };

const appeal = (over: Partial<Appeal>): Appeal => ({
  id: 'a-1',
  submissionId: 's-2',
  kind: 'rejection',
  text: 'The game is on screen',
  status: 'pending',
  postUrl: 'https://x.com/ada/status/2',
  submissionName: 'Rejected clip',
  rejectedReason: 'Not a gaming clip',
  holdReasons: [],
  decisionReason: null,
  decidedAt: null,
  createdAt: '2026-11-29T12:00:00.000Z',
  ...over,
});

describe('the appeal of a clip', () => {
  it('offers Appeal on a rejected clip: a dialog counting to 1,000 that sends the trimmed text', async () => {
    const { calls } = fakeGateway((call): Reply => {
      if (call.method === 'POST') return { status: 201, json: appeal({}) };
      return { json: { appeals: [], nextCursor: null } };
    });
    renderScreen(<SubmissionAppeal submission={REJECTED} appeals={[]} held={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Appeal Rejected clip' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('0/1,000 characters')).toBeVisible();
    await userEvent.type(within(dialog).getByLabelText('Why should the decision change?'), '  The game is on screen  ');
    expect(within(dialog).getByText('21/1,000 characters')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/submissions/s-2/appeal', body: { text: 'The game is on screen' } },
    ]);
  });

  it("shows the server's refusal as it says it, and refuses a blank text before sending", async () => {
    const { writes } = fakeGateway((call): Reply =>
      call.method === 'POST'
        ? { status: 409, text: 'You have already appealed this decision' }
        : { json: { appeals: [], nextCursor: null } },
    );
    renderScreen(<SubmissionAppeal submission={REJECTED} appeals={[]} held={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Appeal Rejected clip' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    expect(await within(dialog).findByText('Please say why the decision should change')).toBeVisible();
    expect(writes()).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Why should the decision change?'), 'Please');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    expect(await within(dialog).findByText('You have already appealed this decision')).toBeVisible();
  });

  it('marks a text over 1,000 characters and will not send it', async () => {
    fakeGateway(() => ({ json: { appeals: [], nextCursor: null } }));
    renderScreen(<SubmissionAppeal submission={REJECTED} appeals={[]} held={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Appeal Rejected clip' }));
    const dialog = await screen.findByRole('dialog');
    const box = within(dialog).getByLabelText('Why should the decision change?');
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(1001));
    expect(within(dialog).getByText('1,001/1,000 characters')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Send appeal' })).toBeDisabled();
  });

  it('offers Appeal on an approved clip only while its earning is held', () => {
    fakeGateway();
    const { unmount } = renderScreen(<SubmissionAppeal submission={APPROVED} appeals={[]} held={false} />);
    expect(screen.queryByRole('button', { name: 'Appeal Big win clip' })).toBeNull();
    unmount();
    renderScreen(<SubmissionAppeal submission={APPROVED} appeals={[]} held />);
    expect(screen.getByRole('button', { name: 'Appeal Big win clip' })).toBeVisible();
  });

  it("shows each appeal's state and offers no second appeal of the same kind", () => {
    fakeGateway();
    const { unmount } = renderScreen(<SubmissionAppeal submission={REJECTED} appeals={[appeal({})]} held={false} />);
    expect(screen.getByText('Appeal pending')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Appeal Rejected clip' })).toBeNull();
    unmount();
    const { unmount: again } = renderScreen(
      <SubmissionAppeal submission={REJECTED} appeals={[appeal({ status: 'upheld', decisionReason: 'Still off-topic' })]} held={false} />,
    );
    expect(screen.getByText('Appeal upheld: Still off-topic')).toBeVisible();
    again();
    renderScreen(
      <SubmissionAppeal
        submission={APPROVED}
        appeals={[appeal({ kind: 'hold', submissionId: 's-1', status: 'overturned', decisionReason: 'A big account shared it' })]}
        held={false}
      />,
    );
    expect(screen.getByText('Appeal overturned: A big account shared it')).toBeVisible();
  });
});
