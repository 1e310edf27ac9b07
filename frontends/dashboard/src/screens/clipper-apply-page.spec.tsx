import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import ClipperApplyPage from './clipper-apply-page.js';

const RECEIVED = "Thanks for applying! We'll review your application and get back to you by email.";

async function fill(values: Partial<Record<string, string>>) {
  const user = userEvent.setup();
  const labels: Record<string, RegExp> = {
    fullName: /^Full Name/,
    email: /^Email/,
    socialMediaHandles: /^Social Media Handles/,
    availabilityHours: /^Availability/,
    experience: /^Experience/,
    whyJoin: /^Why do you want to join/,
    portfolioLinks: /^Portfolio Links/,
  };
  for (const [name, value] of Object.entries(values)) {
    const box = screen.getByLabelText(labels[name]!);
    await user.clear(box);
    if (value) await user.type(box, value);
  }
  return user;
}

const good = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  experience: 'Two years of stream highlights for crypto channels.',
  whyJoin: 'I want to be paid for the clips I already make.',
};

describe('/clippers/apply (spec 02 §5 clipper application)', () => {
  it('shows every broken rule beside its field in the spec’s words and sends nothing', async () => {
    const gateway = fakeGateway();
    renderScreen(<ClipperApplyPage />, '/clippers/apply');
    const user = await fill({ fullName: 'A', email: 'nope', experience: 'short', whyJoin: 'short', availabilityHours: '200' });
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));

    expect(screen.getByLabelText(/^Full Name/)).toHaveAccessibleDescription(
      expect.stringContaining('Full name must be at least 2 characters'),
    );
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(expect.stringContaining('Please enter a valid email address'));
    expect(screen.getByLabelText(/^Experience/)).toHaveAccessibleDescription(
      expect.stringContaining('Please provide more details about your experience (at least 20 characters)'),
    );
    expect(screen.getByLabelText(/^Why do you want to join/)).toHaveAccessibleDescription(
      expect.stringContaining('Please tell us more about why you want to join (at least 20 characters)'),
    );
    expect(screen.getByLabelText(/^Availability/)).toHaveAccessibleDescription(expect.stringContaining('Cannot exceed 168 hours per week'));
    expect(gateway.writes()).toEqual([]);

    // Typing in a field clears its message.
    await fill({ fullName: 'Ada Lovelace' });
    expect(screen.getByLabelText(/^Full Name/)).not.toHaveAccessibleDescription(expect.stringContaining('Full name must be'));
  });

  it('sends the application with empty optional fields left out, then says it was received', async () => {
    const gateway = fakeGateway((call) =>
      call.url === '/api/clipper-applications'
        ? { status: 201, json: { id: 'a1', status: 'pending', message: RECEIVED } }
        : { status: 404, text: 'No such route' },
    );
    renderScreen(<ClipperApplyPage />, '/clippers/apply');
    const user = await fill({ ...good, availabilityHours: '20' });
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));

    expect(await screen.findByRole('heading', { name: 'Application received' })).toBeVisible();
    expect(screen.getAllByText(RECEIVED).length).toBeGreaterThan(0);
    expect(screen.getByText('Application submitted!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/clipper-applications', body: { ...good, availabilityHours: '20' } }]);
    expect(screen.getByRole('link', { name: 'Back to Clippers' })).toHaveAttribute('href', '/clippers/auth');
  });

  it('toasts the server’s refusal (one pending application per email) and keeps what was typed', async () => {
    fakeGateway(() => ({ status: 409, text: 'An application for this email is already pending review' }));
    renderScreen(<ClipperApplyPage />, '/clippers/apply');
    const user = await fill(good);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));

    expect(await screen.findByText('Failed to submit application')).toBeVisible();
    expect(screen.getByText(/An application for this email is already pending review/)).toBeVisible();
    expect(screen.getByLabelText(/^Full Name/)).toHaveValue('Ada Lovelace');
    expect(screen.getByRole('button', { name: 'Submit Application' })).toBeEnabled();
  });
});
