import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { HIRE_MESSAGES, HIRE_PACKAGES, HIRE_URGENCY_LABELS } from '@clipit/field-rules';
import type { HiringProfile } from '@clipit/web-api';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import HireDialog from './hire-dialog.js';

const CLIPPER = '6f1c2a3b-0000-4000-8000-000000000001';
const PROFILE_URL = `/api/clippers/${CLIPPER}/profile`;
const HIRE_URL = `/api/clippers/${CLIPPER}/hire`;
const SENT = 'Hire request sent! The clipper will get back to you through your preferred contact method.';

const hiringProfile = (extra: Partial<HiringProfile> = {}): HiringProfile => ({
  id: 'cp-1',
  userId: CLIPPER,
  displayName: 'Gail Gold',
  twitterUsername: 'gail',
  bio: null,
  profileImageUrl: '/media/avatars/gail.jpg',
  portfolioUrls: [],
  specialties: [],
  yearsExperience: null,
  hourlyRate: null,
  isAvailable: 'true',
  totalHires: 12,
  averageRating: 4.75,
  totalReviews: 8,
  socialLinks: [],
  clipPoints: 900,
  clipperTier: 'gold',
  canBeHired: true,
  services: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

afterEach(() => {
  jest.restoreAllMocks();
});

type Handle = (call: Call) => Reply | Promise<Reply>;
const TOKEN = 't'.repeat(43);
const sentAnswer = { id: 'h-1', status: 'pending', message: SENT, ratingToken: TOKEN, ratingUrl: `/hires/h-1/rate#token=${TOKEN}` };
const profileOk: Handle = () => ({ json: hiringProfile() });

function setup({ profile = profileOk, hire = () => ({ status: 201, json: sentAnswer }) }: { profile?: Handle; hire?: Handle } = {}) {
  const gateway = fakeGateway((call) => {
    if (call.url === PROFILE_URL) return profile(call);
    if (call.url === HIRE_URL) return hire(call);
    return { status: 404, text: 'No such route' };
  });
  const onOpenChange = jest.fn<(open: boolean) => void>();
  const rendered = renderScreen(<HireDialog clipperId={CLIPPER} open onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole('dialog', { name: 'Hire Clipper' });
  return { gateway, onOpenChange, dialog, d: within(dialog), user: userEvent.setup(), ...rendered };
}

const send = (d: ReturnType<typeof within>) => d.getByRole('button', { name: 'Send Request' });

async function fillValid(d: ReturnType<typeof within>, user: ReturnType<typeof userEvent.setup>) {
  await user.type(d.getByLabelText(/^Your Name/), 'Brand Co');
  await user.type(d.getByLabelText(/^Email/), 'Brand@Example.com');
  await user.type(d.getByLabelText(/^Project Description/), 'Twenty clips of our launch stream, please.');
  await user.type(d.getByLabelText(/^Contact Info/), 'brand@example.com');
}

describe('the hire dialog', () => {
  it('shows a skeleton, then the clipper’s name, picture, rating, total hires and availability', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { d, gateway } = setup({
      profile: async () => {
        await gate;
        return { json: hiringProfile() };
      },
    });
    expect(d.getByTestId('hire-profile-skeleton')).toBeInTheDocument();
    expect(d.getByRole('status')).toHaveTextContent('Loading the clipper’s profile');
    release();
    const summary = await d.findByRole('region', { name: 'Clipper' });
    const s = within(summary);
    expect(s.getByText('Gail Gold')).toBeVisible();
    expect(s.getByText('@gail')).toBeVisible();
    expect(summary.querySelector('img.clipit-hire-avatar')).toHaveAttribute('src', '/media/avatars/gail.jpg');
    expect(s.getByText('Rating').nextElementSibling).toHaveTextContent('4.8 (8 reviews)');
    expect(s.getByText('Total hires').nextElementSibling).toHaveTextContent('12');
    expect(s.getByText('Available')).toBeVisible();
    expect(d.queryByTestId('hire-profile-skeleton')).toBeNull();
    expect(gateway.calls.map((c) => c.url)).toEqual([PROFILE_URL]);
  });

  it('draws an initial without a picture, and says when the clipper takes no work', async () => {
    const { d } = setup({ profile: () => ({ json: hiringProfile({ profileImageUrl: null, isAvailable: 'false', canBeHired: false }) }) });
    const summary = await d.findByRole('region', { name: 'Clipper' });
    expect(summary.querySelector('img')).toBeNull();
    expect(summary.querySelector('.clipit-hire-avatar')).toHaveTextContent('G');
    expect(within(summary).getByText('Unavailable')).toBeVisible();
    expect(within(summary).getByText(HIRE_MESSAGES.unavailable)).toBeVisible();
  });

  it('says why the profile could not be loaded, and tries again', async () => {
    let fail = true;
    const { d, user } = setup({ profile: () => (fail ? { status: 404, text: 'Clipper not found' } : { json: hiringProfile() }) });
    expect(await d.findByRole('alert')).toHaveTextContent('Clipper not found');
    fail = false;
    await user.click(d.getByRole('button', { name: 'Retry' }));
    expect(await d.findByText('Gail Gold')).toBeVisible();
  });

  it('falls back to its own words when the profile’s failure has none', async () => {
    const { d } = setup({ profile: () => ({ status: 500, text: '' }) });
    expect(await d.findByRole('alert')).toHaveTextContent('Failed to load this clipper’s profile.');
  });

  it('shows the three packages; choosing one fills the budget and the description (Viral Marketing: no budget)', async () => {
    const { d, user } = setup();
    const packs = within(d.getByRole('region', { name: 'Packages' })).getAllByRole('button');
    expect(packs.map((b) => b.textContent)).toEqual([
      'Speed Pack$407 clips · 24 hours',
      'Growth Pack$10020 clips · 3 days',
      'Viral MarketingCustomBook a call',
    ]);
    expect(packs.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'false']);
    const budget = d.getByLabelText(/^Budget/);
    const description = d.getByLabelText(/^Project Description/);

    await user.click(d.getByRole('button', { name: /^Speed Pack/ }));
    expect(budget).toHaveValue('40');
    expect(description).toHaveValue(HIRE_PACKAGES[0].description);
    expect(d.getByRole('button', { name: /^Speed Pack/ })).toHaveAttribute('aria-pressed', 'true');

    await user.click(d.getByRole('button', { name: /^Growth Pack/ }));
    expect(budget).toHaveValue('100');
    expect(description).toHaveValue(HIRE_PACKAGES[1].description);
    expect(d.getByRole('button', { name: /^Speed Pack/ })).toHaveAttribute('aria-pressed', 'false');
    expect(d.getByRole('button', { name: /^Growth Pack/ })).toHaveAttribute('aria-pressed', 'true');

    await user.click(d.getByRole('button', { name: /^Viral Marketing/ }));
    expect(budget).toHaveValue('');
    expect(description).toHaveValue(HIRE_PACKAGES[2].description);
    expect(d.getByRole('button', { name: /^Viral Marketing/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('has the urgency and contact options with their labels, medium and email by default', async () => {
    const { d } = setup();
    const urgency = d.getByLabelText('Urgency');
    expect(
      within(urgency)
        .getAllByRole('option')
        .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    ).toEqual((['low', 'medium', 'high', 'urgent'] as const).map((v) => [v, HIRE_URGENCY_LABELS[v]]));
    expect(urgency).toHaveValue('medium');
    const contact = d.getByLabelText('Preferred Contact');
    expect(
      within(contact)
        .getAllByRole('option')
        .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    ).toEqual([
      ['email', 'Email'],
      ['telegram', 'Telegram'],
      ['twitter', 'Twitter'],
    ]);
    expect(contact).toHaveValue('email');
  });

  it('shows each broken rule beside its field and calls nothing; typing clears a field’s message', async () => {
    const { d, user, gateway } = setup();
    await d.findByText('Gail Gold');
    await user.click(send(d));
    expect(d.getByLabelText(/^Your Name/)).toHaveAccessibleDescription(HIRE_MESSAGES.clientNameShort);
    expect(d.getByLabelText(/^Email/)).toHaveAccessibleDescription(HIRE_MESSAGES.clientEmail);
    expect(d.getByLabelText(/^Project Description/)).toHaveAccessibleDescription(
      expect.stringContaining(HIRE_MESSAGES.projectDescriptionShort),
    );
    expect(d.getByLabelText(/^Contact Info/)).toHaveAccessibleDescription(expect.stringContaining(HIRE_MESSAGES.contactInfoRequired));
    expect(d.getByLabelText(/^Your Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(d.getByLabelText(/^Budget/)).not.toHaveAttribute('aria-invalid');

    await user.type(d.getByLabelText(/^Budget/), '-5');
    await user.type(d.getByLabelText(/^Your Name/), 'A');
    await user.click(send(d));
    expect(d.getByText(HIRE_MESSAGES.budgetPositive)).toBeVisible();
    expect(d.getByText(HIRE_MESSAGES.clientNameShort)).toBeVisible();
    await user.type(d.getByLabelText(/^Your Name/), 'l');
    expect(d.queryByText(HIRE_MESSAGES.clientNameShort)).toBeNull();
    expect(gateway.writes()).toEqual([]);
  });

  it('sends exactly the spec’s fields (medium, email, no budget → null), toasts the server’s message, shows the rating link, and Done closes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { d, user, gateway, onOpenChange } = setup({
      hire: async () => {
        await gate;
        return { status: 201, json: sentAnswer };
      },
    });
    await fillValid(d, user);
    await user.click(send(d));
    const pending = d.getByRole('button', { name: /Sending\.\.\./ });
    expect(pending).toBeDisabled();
    expect(d.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    release();

    const sent = await d.findByRole('region', { name: 'Request sent' });
    expect(within(sent).getByRole('status')).toHaveTextContent(SENT);
    expect(screen.getAllByText(SENT).length).toBe(2); // the toast and the panel
    expect(within(sent).getByRole('link')).toHaveAttribute('href', `${window.location.origin}/hires/h-1/rate#token=${TOKEN}`);
    expect(d.queryByRole('form', { name: 'Hire request' })).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();
    await user.click(within(sent).getByRole('button', { name: 'Done' }));
    expect(gateway.writes()).toEqual([
      {
        method: 'POST',
        url: HIRE_URL,
        body: {
          clipperId: CLIPPER,
          clientName: 'Brand Co',
          clientEmail: 'brand@example.com',
          projectDescription: 'Twenty clips of our launch stream, please.',
          budget: null,
          urgency: 'medium',
          preferredContact: 'email',
          contactInfo: 'brand@example.com',
        },
      },
    ]);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(d.getByLabelText(/^Your Name/)).toHaveValue('');
  });

  it('sends a chosen package’s budget, and the urgency and contact method chosen', async () => {
    const { d, user, gateway } = setup();
    await user.click(d.getByRole('button', { name: /^Growth Pack/ }));
    await user.type(d.getByLabelText(/^Your Name/), 'Brand Co');
    await user.type(d.getByLabelText(/^Email/), 'brand@example.com');
    await user.selectOptions(d.getByLabelText('Urgency'), 'urgent');
    await user.selectOptions(d.getByLabelText('Preferred Contact'), 'telegram');
    expect(d.getByLabelText(/^Contact Info/)).toHaveAccessibleDescription('Your Telegram username.');
    await user.type(d.getByLabelText(/^Contact Info/), '@brandco');
    await user.click(send(d));
    await d.findByRole('region', { name: 'Request sent' });
    expect(gateway.writes()[0]?.body).toEqual({
      clipperId: CLIPPER,
      clientName: 'Brand Co',
      clientEmail: 'brand@example.com',
      projectDescription: HIRE_PACKAGES[1].description,
      budget: 100,
      urgency: 'urgent',
      preferredContact: 'telegram',
      contactInfo: '@brandco',
    });
  });

  it('toasts Error with the server’s words and stays open', async () => {
    const { d, user, gateway, onOpenChange } = setup({ hire: () => ({ status: 403, text: HIRE_MESSAGES.notGold }) });
    await fillValid(d, user);
    await user.click(send(d));
    expect(await screen.findByText('Error')).toBeVisible();
    expect(screen.getByText(HIRE_MESSAGES.notGold)).toBeVisible();
    expect(gateway.writes()).toHaveLength(1);
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(d.getByLabelText(/^Your Name/)).toHaveValue('Brand Co');
    expect(send(d)).toBeEnabled();
  });

  it('toasts Error with the fallback when the server says nothing', async () => {
    const { d, user } = setup({ hire: () => ({ status: 502, text: '' }) });
    await fillValid(d, user);
    await user.click(send(d));
    expect(await screen.findByText('Error')).toBeVisible();
    expect(screen.getByText(HIRE_MESSAGES.failed)).toBeVisible();
  });

  it('is a labelled modal dialog that takes focus, and Escape or Cancel close it', async () => {
    const { dialog, d, user, onOpenChange } = setup();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription(/Pick a package or describe your project/);
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();
    await user.click(d.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledTimes(1));
  });
});
