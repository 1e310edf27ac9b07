import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import ViewHistory from './view-history.js';
import type { MetricsHistoryAnswer } from '../lib/view-history.js';

const history = (extra: Partial<MetricsHistoryAnswer> = {}): MetricsHistoryAnswer => ({
  submissionId: 's-1',
  views: 8400,
  likes: 10,
  retweets: 2,
  replies: 1,
  quoteCount: 0,
  bookmarkCount: 0,
  verificationCode: 'CLIP-7K2Q',
  verifiedAt: null,
  lastMetricsFetch: '2026-11-26T11:00:00Z',
  publishedAt: '2026-11-24T10:00:00Z',
  points: [
    { at: '2026-11-24T12:00:00Z', views: 1200, likes: 1, retweets: 0, replies: 0 },
    { at: '2026-11-25T12:00:00Z', views: 3000, likes: 4, retweets: 1, replies: 0 },
    { at: '2026-11-26T12:00:00Z', views: 8400, likes: 10, retweets: 2, replies: 1 },
  ],
  ...extra,
});

function setup(reply: Reply | Promise<Reply>, details = false) {
  const gateway = fakeGateway((call) =>
    call.url === '/api/submissions/s-1/metrics-history' ? reply : { status: 404, text: 'No such route' },
  );
  renderScreen(<ViewHistory submissionId="s-1" details={details} />);
  return gateway;
}

beforeEach(() => {
  jest.useFakeTimers({
    now: new Date('2026-11-26T12:00:00Z'),
    doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'],
  });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('the view history chart', () => {
  it('shows a skeleton, then the chart named by its text alternative, with the points as a table', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const gateway = setup(answered.then(() => ({ json: history() })));
    expect(screen.getByTestId('view-history-loading')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Loading view history');
    answer();

    const chart = await screen.findByRole('img', { name: 'Views over time: 1.2K on 24 Nov → 8.4K on 26 Nov' });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    expect(chart.querySelector('title')).toHaveTextContent('Views over time: 1.2K on 24 Nov → 8.4K on 26 Nov');
    // 1200, 3000 and 8400 of 8400 over 36 units of height, 2 from the edges; a day is 78 units across.
    const [area, line] = Array.from(chart.querySelectorAll('path'));
    expect(line).toHaveAttribute('d', 'M2 32.86 L80 25.14 L158 2');
    expect(area?.getAttribute('d')).toBe('M2 32.86 L80 25.14 L158 2 L158 38 L2 38 Z');
    const table = screen.getByRole('table', { name: 'Views by day' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['24 Nov1.2K', '25 Nov3.0K', '26 Nov8.4K']);
    expect(screen.queryByTestId('view-history-loading')).toBeNull();
    // Without details: no fetch time, no verification.
    expect(screen.queryByText(/Updated|Verified|Unverified/)).toBeNull();
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/submissions/s-1/metrics-history']);
  });

  it('says when no views are recorded yet', async () => {
    setup({ json: history({ points: [] }) });
    expect(await screen.findByText('No views recorded yet')).toBeVisible();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('says quietly that the history is unavailable when it cannot be loaded, and does not retry', async () => {
    const gateway = setup({ status: 500, text: 'Something went wrong. Please try again.' });
    expect(await screen.findByText('View history unavailable right now')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(gateway.calls).toHaveLength(1);
  });

  it('with details: when the metrics were fetched, and what verifies the post', async () => {
    setup({ json: history() }, true);
    expect(await screen.findByText('Updated 1 hour ago')).toBeVisible();
    expect(
      screen.getByText("Unverified — add CLIP-7K2Q to your post, or sign in with X as the post's author, so its views count"),
    ).toBeVisible();
  });

  it('with details: Verified, and Not fetched yet', async () => {
    setup({ json: history({ verifiedAt: '2026-11-25T00:00:00Z', lastMetricsFetch: null, points: [] }) }, true);
    expect(await screen.findByText('Verified')).toBeVisible();
    expect(screen.getByText('Not fetched yet')).toBeVisible();
    expect(screen.getByText('No views recorded yet')).toBeVisible();
  });
});
