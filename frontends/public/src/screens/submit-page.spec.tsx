import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import SubmitPage from './submit-page.js';

describe('/submit', () => {
  it('titles the page and embeds the submission form with every field', async () => {
    fakeGateway((call) => (call.url === '/api/user/me' ? { json: { id: 'u1', twitterUsername: 'alice' } } : { json: [] }));
    renderScreen(<SubmitPage />, '/submit');
    expect(screen.getByRole('heading', { level: 1, name: 'Submit Your Clip' })).toBeVisible();
    expect(screen.getByText(/Submit your Twitter\/X post with its video upload\./)).toBeVisible();
    const form = screen.getByRole('form', { name: 'Submit Your Clip' });
    for (const name of ['Clip Title', 'Twitter/X Post URL', 'Additional Info (optional)'])
      expect(within(form).getByRole('textbox', { name })).toBeVisible();
    expect(within(form).getByRole('combobox', { name: 'Streamer (optional)' })).toBeVisible();
    expect(within(form).getByLabelText(/^Video/)).toHaveAttribute('type', 'file');
    expect(within(form).getByText('0/150')).toBeVisible();
    expect(within(form).getByRole('button', { name: 'Submit Clip' })).toBeVisible();
    expect(await screen.findByText('@alice')).toBeVisible();
  });

  it('holds the account line’s place with a skeleton while the session is being read', () => {
    fakeGateway(() => new Promise(() => undefined));
    const { container } = renderScreen(<SubmitPage />, '/submit');
    expect(container.querySelector('.clipit-submit-account .clip-skeleton')).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.getByRole('form', { name: 'Submit Your Clip' })).toBeVisible();
  });
});
