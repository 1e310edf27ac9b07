import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import { campaignAnswer, campaignsAnswer } from '../testing/fixtures.js';
import { CpmCampaignsTab } from './cpm-campaigns-tab.js';

const SUBMITTED = 'Campaign submitted! Our team will review it within 24 hours.';

/** The gateway of the tab: the streamer's campaigns, and what POST /api/cpm-campaigns answers. */
function gateway(
  post: Reply | (() => Reply | Promise<Reply>) = {
    status: 201,
    json: { campaign: campaignAnswer({ status: 'pending' }), message: SUBMITTED },
  },
  list: Reply = { json: campaignsAnswer() },
) {
  return fakeGateway((call) => {
    if (call.method === 'GET' && call.url === '/api/cpm-campaigns') return list;
    if (call.method === 'POST' && call.url === '/api/cpm-campaigns') return typeof post === 'function' ? post() : post;
    return { status: 404, text: 'No such route' };
  });
}

const field = (name: string) => screen.getByRole('textbox', { name });
const views = () => field('Target Views');
const budget = () => field('Budget (USD)');
const submitButton = () => screen.getByRole('button', { name: 'Submit Campaign' });

async function fillValid() {
  await userEvent.type(field('Campaign Title'), 'Launch week push');
  await userEvent.type(field('Description'), 'Clips of our launch stream for crypto traders.');
}

describe('the cpm-campaigns tab (spec 02 §2.5, ADR 0027)', () => {
  it('pitches the price, the minimum, the audience and the review time', () => {
    gateway();
    renderScreen(<CpmCampaignsTab />);
    expect(screen.getByText('$5 per 1,000 views')).toBeVisible();
    expect(screen.getByText('$500 (100K views)')).toBeVisible();
    expect(screen.getByText('10,000+ crypto traders')).toBeVisible();
    expect(screen.getByText('Our team reviews every campaign within 24 hours.')).toBeVisible();
  });

  it('starts at the minimum campaign: 100,000 views for $500, the rule shown', () => {
    gateway();
    renderScreen(<CpmCampaignsTab />);
    expect(views()).toHaveValue('100000');
    expect(budget()).toHaveValue('500');
    expect(budget()).toHaveAccessibleDescription('$5 per 1,000 views: 100,000 views cost $500.');
    expect(field('Content Link (optional)')).toHaveValue('');
  });

  it('fills the budget from the views typed, and the views from a budget typed', async () => {
    gateway();
    renderScreen(<CpmCampaignsTab />);
    await userEvent.clear(views());
    await userEvent.type(views(), '250000');
    expect(budget()).toHaveValue('1250');
    expect(budget()).toHaveAccessibleDescription('$5 per 1,000 views: 250,000 views cost $1,250.');
    await userEvent.clear(budget());
    await userEvent.type(budget(), '2000');
    expect(views()).toHaveValue('400000');
    // Something that is not a number leaves the other field as it was.
    await userEvent.type(budget(), 'x');
    expect(views()).toHaveValue('400000');
  });

  it("shows each rule in the form's words beside its field, and sends nothing while one is broken", async () => {
    const calls = gateway();
    renderScreen(<CpmCampaignsTab />);
    await userEvent.clear(views());
    await userEvent.type(views(), '50000');
    await userEvent.type(field('Description'), 'Too short');
    await userEvent.type(field('Content Link (optional)'), 'not a link');
    await userEvent.click(submitButton());
    expect(field('Campaign Title')).toHaveAccessibleDescription('Campaign title is required');
    expect(field('Description')).toHaveAccessibleDescription(
      expect.stringContaining('Please provide a detailed description (at least 20 characters)'),
    );
    expect(views()).toHaveAccessibleDescription(expect.stringContaining('Minimum 100,000 views required (minimum $500 budget)'));
    expect(budget()).toHaveAccessibleDescription(expect.stringContaining('Minimum budget is $500'));
    expect(field('Content Link (optional)')).toHaveAccessibleDescription(expect.stringContaining('Please provide a valid URL'));
    expect(views()).toHaveAttribute('aria-invalid', 'true');
    expect(calls.writes()).toEqual([]);

    await userEvent.clear(field('Campaign Title'));
    await userEvent.type(field('Campaign Title'), 'Abc');
    expect(field('Campaign Title')).toHaveAccessibleDescription('Title must be at least 5 characters');
  });

  it('shows a field’s rule once it is left, before any submit', async () => {
    gateway();
    renderScreen(<CpmCampaignsTab />);
    await userEvent.click(field('Campaign Title'));
    await userEvent.tab();
    expect(field('Campaign Title')).toHaveAccessibleDescription('Campaign title is required');
    expect(field('Description')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it("sends the campaign exactly as checked, toasts the server's message, resets the form and reads the list again", async () => {
    let listed = campaignsAnswer([]);
    const calls = fakeGateway((call) => {
      if (call.method === 'GET') return { json: listed };
      listed = campaignsAnswer([
        campaignAnswer({ title: 'Launch week push', status: 'pending', deliveredViews: 0, targetViews: 300_000, budgetAmount: 1500 }),
      ]);
      return { status: 201, json: { campaign: listed.campaigns[0], message: SUBMITTED } };
    });
    renderScreen(<CpmCampaignsTab />);
    expect(await screen.findByRole('heading', { name: 'No campaigns yet' })).toBeVisible();
    await fillValid();
    await userEvent.clear(views());
    await userEvent.type(views(), '300,000');
    await userEvent.type(field('Content Link (optional)'), ' https://twitch.tv/samstreams ');
    await userEvent.click(submitButton());
    expect(await screen.findByText(SUBMITTED)).toBeVisible();
    expect(calls.writes()).toEqual([
      {
        method: 'POST',
        url: '/api/cpm-campaigns',
        body: {
          title: 'Launch week push',
          description: 'Clips of our launch stream for crypto traders.',
          targetViews: 300_000,
          budgetAmount: 1500,
          contentLink: 'https://twitch.tv/samstreams',
        },
      },
    ]);
    await waitFor(() => expect(field('Campaign Title')).toHaveValue(''));
    expect(views()).toHaveValue('100000');
    expect(budget()).toHaveValue('500');
    const list = await screen.findByRole('list', { name: 'Your campaigns' });
    expect(within(list).getByText('Pending')).toHaveClass('clip-badge--warning');
    expect(calls.calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });

  it('sends an empty link as null, and disables the button while the call runs', async () => {
    let release: (reply: Reply) => void = () => undefined;
    const calls = gateway(() => new Promise<Reply>((resolve) => (release = resolve)));
    renderScreen(<CpmCampaignsTab />);
    await fillValid();
    await userEvent.click(submitButton());
    const pending = screen.getByRole('button', { name: /Submitting/ });
    expect(pending).toBeDisabled();
    expect(calls.writes()[0]!.body).toEqual({
      title: 'Launch week push',
      description: 'Clips of our launch stream for crypto traders.',
      targetViews: 100_000,
      budgetAmount: 500,
      contentLink: null,
    });
    release({ status: 201, json: { campaign: campaignAnswer(), message: SUBMITTED } });
    expect(await screen.findByText(SUBMITTED)).toBeVisible();
  });

  it("toasts 'Error' with the server's text when the campaign is refused, and keeps the form", async () => {
    gateway({ status: 403, text: 'Only streamers can create CPM campaigns' });
    renderScreen(<CpmCampaignsTab />);
    await fillValid();
    await userEvent.click(submitButton());
    expect(await screen.findByText('Error')).toBeVisible();
    expect(screen.getByText('Only streamers can create CPM campaigns')).toBeVisible();
    expect(field('Campaign Title')).toHaveValue('Launch week push');
  });

  it("says 'Failed to submit campaign' when there is no server text", async () => {
    fakeGateway((call) => {
      if (call.method === 'GET') return { json: campaignsAnswer([]) };
      throw new TypeError('Failed to fetch');
    });
    renderScreen(<CpmCampaignsTab />);
    await fillValid();
    await userEvent.click(submitButton());
    expect(await screen.findByText('Error')).toBeVisible();
    expect(screen.getByText('Failed to submit campaign')).toBeVisible();
  });
});

describe("the streamer's campaigns", () => {
  it('lists title, status, views, budget, delivered views, date and a rejection reason', async () => {
    gateway();
    renderScreen(<CpmCampaignsTab />);
    const list = await screen.findByRole('list', { name: 'Your campaigns' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('heading', { name: 'Launch week push' })).toBeVisible();
    expect(within(first!).getByText('Approved')).toHaveClass('clip-badge--success');
    expect(first).toHaveTextContent('200,000 views · $1,000');
    expect(first).toHaveTextContent(/Nov 20, 2026 • \d{1,2}:07 (AM|PM)/);
    expect(first).toHaveTextContent('50,000 of 200,000 views delivered');
    expect(within(first!).getByRole('progressbar', { name: 'Delivered views for Launch week push' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(within(second!).getByText('Rejected')).toHaveClass('clip-badge--destructive');
    expect(second).toHaveTextContent('Reason: Content link is not allowed');
    expect(first).not.toHaveTextContent('Reason:');
  });

  it('shows skeletons while loading, and the error when the list fails', async () => {
    let fail: (reply: Reply) => void = () => undefined;
    fakeGateway(() => new Promise<Reply>((resolve) => (fail = resolve)));
    renderScreen(<CpmCampaignsTab />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    fail({ status: 503, text: 'Service temporarily unavailable' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your campaigns are unavailable right now. Error: 503: Service temporarily unavailable',
    );
  });
});
