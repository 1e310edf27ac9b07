import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { renderScreen } from '@clipit/web-testing';
import type { SystemMetric, SystemMetrics } from '@clipit/web-api';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import AdminPage from '../screens/admin-page.js';
import { adminRoutes, fakeAdminGateway, restoreFetch, seedSession, TOKEN, type AdminHandler } from '../testing/admin-gateway.js';

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
});
afterEach(() => restoreFetch());

const SAMPLED = '2026-11-28T12:00:00.000Z';
function aMetric(overrides: Partial<SystemMetric> = {}): SystemMetric {
  return {
    id: `m-${Math.random()}`,
    metricType: 'readiness',
    metricName: 'feed',
    value: 1,
    unit: 'ready',
    status: 'ok',
    threshold: 1,
    metadata: { critical: 0 },
    createdAt: SAMPLED,
    series: [
      { at: '2026-11-27T12:00:00.000Z', value: 1 },
      { at: SAMPLED, value: 1 },
    ],
    ...overrides,
  };
}

function withSystem(answer: SystemMetrics | { status: number; text: string }): AdminHandler {
  const rest = adminRoutes({});
  return (call) => {
    if (call.method === 'GET' && call.url === '/api/admin/system-metrics') {
      return 'metrics' in answer ? { json: answer } : answer;
    }
    return rest(call);
  };
}

async function openTab(handler: AdminHandler) {
  const gateway = fakeAdminGateway(handler);
  renderScreen(<AdminPage />, '/admin');
  await userEvent.click(await screen.findByRole('tab', { name: 'System' }));
  return gateway;
}

describe('System (spec 02 §3 system_metrics)', () => {
  it("shows each metric's latest value with its unit, its status against its threshold and its 24-hour chart", async () => {
    const gateway = await openTab(
      withSystem({
        sampledAt: SAMPLED,
        intervalMs: 60_000,
        metrics: [
          aMetric(),
          aMetric({ metricName: 'rewards', value: 0, status: 'critical', metadata: { critical: 0, error: 'ECONNREFUSED' } }),
          aMetric({
            metricType: 'queue_depth',
            metricName: 'media',
            value: 150,
            unit: 'jobs',
            status: 'warning',
            threshold: 100,
            metadata: { critical: 1000 },
          }),
        ],
      }),
    );
    const readiness = await screen.findByRole('region', { name: 'Service readiness' });
    const [feed, rewards] = within(readiness).getAllByRole('article');
    expect(within(feed!).getByText('Ready')).toBeVisible();
    expect(within(feed!).getByText('OK')).toBeVisible();
    expect(within(feed!).getByRole('img', { name: 'feed: last 24 hours' })).toBeVisible();
    expect(within(rewards!).getByText('Not ready')).toBeVisible();
    expect(within(rewards!).getByText('Critical')).toBeVisible();
    expect(within(rewards!).getByText('ECONNREFUSED')).toBeVisible();
    const queues = screen.getByRole('region', { name: 'Queue depth' });
    expect(within(queues).getByText('150 jobs')).toBeVisible();
    expect(within(queues).getByText('Warning')).toBeVisible();
    expect(within(queues).getByText('Threshold: 100 jobs (critical at 1,000)')).toBeVisible();
    expect(gateway.calls.find((c) => c.url === '/api/admin/system-metrics')?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('says so before the first sample', async () => {
    await openTab(withSystem({ sampledAt: null, intervalMs: 60_000, metrics: [] }));
    expect(await screen.findByText(/No system metrics yet/)).toBeVisible();
  });

  it("says 'Failed to fetch system metrics' when the call fails", async () => {
    await openTab(withSystem({ status: 503, text: 'The admin service is unavailable' }));
    expect(await screen.findByText('Failed to fetch system metrics', { selector: 'p' })).toBeVisible();
  });
});
