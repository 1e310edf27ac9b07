import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { cleanup, render, waitFor } from '@testing-library/react';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient } from '@clipit/web-api';
import { fakeGateway } from '@clipit/web-testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from '@clipit/router';
import { routes } from './routes.js';

// A page's `reads` are fetched by the browser with the page's HTML (the gateway's Link header), and a
// preload is only used by a request for exactly the same address: a read the screen does not make, or
// makes differently, is a wasted download plus the real one. So each page's screen, rendered at a plain
// address, must request every read it lists.

beforeAll(() => {
  // jsdom has no IntersectionObserver (the feed watches its cards with one); nothing is ever visible here.
  globalThis.IntersectionObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  } as unknown as typeof IntersectionObserver;
});

afterEach(cleanup);

/** The page's address with each `:param` given a sample value, and the reads filled from it as the gateway fills them. */
function sample(path: string, reads: readonly string[]) {
  const values: Record<string, string> = {};
  const address = path.replace(/:(\w+)/g, (_, name: string) => (values[name] = `sample-${name}`));
  return {
    address,
    reads: reads.map((read) => read.replace(/:(\w+)/g, (whole, name: string) => encodeURIComponent(values[name] ?? whole))),
  };
}

const withReads = routes.filter((route) => (route.reads ?? []).length > 0);

describe("the public pages' first API reads", () => {
  it('are listed for the pages a visitor opens first', () => {
    expect(withReads.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/', '/feed', '/discover', '/leaderboard', '/clipper/:userId']),
    );
    for (const route of routes) for (const read of route.reads ?? []) expect(read).toMatch(/^\/api\//);
  });

  it.each(withReads.map((route) => [route.path, route] as const))('%s: its screen requests each read it lists', async (_path, route) => {
    const gateway = fakeGateway();
    const { address, reads } = sample(route.path, route.reads ?? []);
    const { default: Screen } = await route.lazy();
    const router = createMemoryRouter([{ path: route.path, element: <Screen /> }], { initialEntries: [address] });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    await waitFor(() =>
      expect(gateway.calls.map((call) => `${call.method} ${call.url}`)).toEqual(expect.arrayContaining(reads.map((read) => `GET ${read}`))),
    );
  });
});
