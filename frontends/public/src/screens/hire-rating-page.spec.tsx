import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { HIRE_RATING_MESSAGES as R } from '@clipit/field-rules';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient } from '@clipit/web-api';
import { fakeGateway, type Handler } from '@clipit/web-testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from '@clipit/router';
import HireRatingPage from './hire-rating-page.js';

const HIRE = '5c0e8f7a-1b2c-4d3e-8f9a-0b1c2d3e4f5a';
const TOKEN = 'A'.repeat(43);
const RATE_URL = `/api/clipper-hires/${HIRE}/rating`;

function setup(handler: Handler, entry = `/hires/${HIRE}/rate#token=${TOKEN}`) {
  const gateway = fakeGateway(handler);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/hires/:hireId/rate" element={<HireRatingPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { gateway, user: userEvent.setup() };
}

const rated = {
  hireId: HIRE,
  clipperId: 'c-1',
  rating: 4,
  review: 'Sharp clips.',
  averageRating: 4.5,
  totalReviews: 2,
  message: R.saved,
};

describe('the rating page (ADR 0040)', () => {
  it('asks for stars before sending, then sends the token, the stars and the review, and shows the clipper’s new rating', async () => {
    const { gateway, user } = setup(() => ({ json: rated }));
    await user.click(screen.getByRole('button', { name: 'Submit Rating' }));
    expect(await screen.findByText(R.ratingRange)).toBeVisible();
    expect(gateway.writes()).toEqual([]);

    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    await user.type(screen.getByLabelText(/^Review/), '  Sharp clips.  ');
    await user.click(screen.getByRole('button', { name: 'Submit Rating' }));
    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent(R.saved);
    expect(screen.getByText('4.5 (2 reviews)')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: RATE_URL, body: { token: TOKEN, rating: 4, review: 'Sharp clips.' } }]);
  });

  it('shows the server’s refusal in its words and keeps the form', async () => {
    const { user } = setup(() => ({ status: 409, text: R.notCompleted }));
    await user.click(screen.getByRole('radio', { name: '5 stars' }));
    await user.click(screen.getByRole('button', { name: 'Submit Rating' }));
    expect(await screen.findByText(R.notCompleted)).toBeVisible();
    expect(screen.getByRole('form', { name: 'Rating' })).toBeVisible();
  });

  it('says the link is incomplete without a token, and sends nothing', () => {
    const { gateway } = setup(() => ({ json: rated }), `/hires/${HIRE}/rate`);
    expect(screen.getByRole('alert')).toHaveTextContent(R.tokenRequired);
    expect(screen.queryByRole('button', { name: 'Submit Rating' })).toBeNull();
    expect(gateway.calls).toEqual([]);
  });
});
