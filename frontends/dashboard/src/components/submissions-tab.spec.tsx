import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ViewHistoryProps } from '@clipit/frontend-contracts';
import { act, screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { dashboardAnswer } from '../testing/fixtures.js';
import { resetSubmissionViewHistory } from './submission-view-history.js';
import { SubmissionsTab } from './submissions-tab.js';

const SUBMISSIONS = [
  ...dashboardAnswer().recentSubmissions,
  {
    id: 's-4',
    name: 'Viral clip',
    platform: 'twitter',
    url: 'https://x.com/adaclips/status/4',
    views: 1_250_000,
    createdAt: '2026-11-23T12:00:00.000Z',
    status: 'approved' as const,
    rejectedReason: null,
  },
];

/** The public remote's chart as the page's federation runtime hands it over. */
function FakeViewHistory({ submissionId, details }: ViewHistoryProps) {
  return <p data-testid="view-history">{`chart of ${submissionId}${details ? ' with details' : ''}`}</p>;
}

function federationWith(loadRemote: (id: string) => Promise<unknown>) {
  globalThis.__FEDERATION__ = {
    __INSTANCES__: [{ options: { remotes: [{ name: 'clipit_public' }, { name: 'clipit_dashboard' }] }, loadRemote: loadRemote as never }],
  };
}

let consoleError: jest.SpiedFunction<typeof console.error>;
beforeEach(() => {
  resetSubmissionViewHistory();
  fakeGateway();
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  globalThis.__FEDERATION__ = undefined;
  Reflect.deleteProperty(window, 'IntersectionObserver');
  consoleError.mockRestore();
});

const row = (name: string) => screen.getByRole('heading', { level: 3, name }).closest('li')!;

describe('the Submissions tab', () => {
  it('shows each approved submission’s views and its view history with details, loaded once from the public remote', async () => {
    const loadRemote = jest.fn(async (id: string) => (id === 'clipit_public/ViewHistory' ? { default: FakeViewHistory } : null));
    federationWith(loadRemote);
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    expect(await within(row('Big win clip')).findByText('chart of s-1 with details')).toBeVisible();
    expect(await within(row('Viral clip')).findByText('chart of s-4 with details')).toBeVisible();
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(row('Viral clip')).toHaveTextContent('1.3M views');
    // Pending and rejected submissions have no history to show.
    expect(within(row('Blurry clip')).queryByTestId('view-history')).toBeNull();
    expect(within(row('Fresh clip')).queryByTestId('view-history')).toBeNull();
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it('downloads the chart only once a row comes near the screen', async () => {
    const observed: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    class FakeObserver {
      constructor(readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        observed.push({ callback: this.callback, target });
      }
      disconnect() {}
    }
    Object.defineProperty(window, 'IntersectionObserver', { value: FakeObserver, configurable: true, writable: true });
    const loadRemote = jest.fn(async () => ({ default: FakeViewHistory }));
    federationWith(loadRemote);
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    expect(within(row('Big win clip')).getByTestId('view-history-placeholder')).toBeInTheDocument();
    expect(observed).toHaveLength(2);
    expect(loadRemote).not.toHaveBeenCalled();
    const first = observed.find((o) => row('Big win clip').contains(o.target!))!;
    act(() => first.callback([{ isIntersecting: true, target: first.target } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(await within(row('Big win clip')).findByText('chart of s-1 with details')).toBeVisible();
    expect(within(row('Viral clip')).queryByTestId('view-history')).toBeNull();
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it('says quietly that the history is unavailable when the public remote cannot give it', async () => {
    federationWith(async () => Promise.reject(new Error('chunk 404')));
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);
    expect(await within(row('Big win clip')).findByText('View history unavailable right now')).toBeVisible();
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the public remote is not on the page at all', async () => {
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);
    expect(await within(row('Viral clip')).findByText('View history unavailable right now')).toBeVisible();
  });
});
