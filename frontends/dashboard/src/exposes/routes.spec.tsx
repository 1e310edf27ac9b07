import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, waitFor } from '@testing-library/react';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient } from '@clipit/web-api';
import { fakeGateway } from '@clipit/web-testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from '@clipit/router';
import { routes } from './routes.js';

// A page's `reads` are fetched by the browser with the page's HTML (the gateway's Link header), and a
// preload is only used by a request for exactly the same address: each page's screen, rendered at its
// plain address, must request every read it lists (as the public remote's routes.spec.tsx checks).

afterEach(cleanup);

const withReads = routes.filter((route) => (route.reads ?? []).length > 0);

describe("the dashboard pages' first API reads", () => {
  it('are listed for the clipper dashboard', () => {
    expect(withReads.map((route) => route.path)).toEqual(['/clippers/dashboard']);
    for (const route of routes) for (const read of route.reads ?? []) expect(read).toMatch(/^\/api\//);
  });

  it.each(withReads.map((route) => [route.path, route] as const))(
    '%s: its screen requests each read it lists, signed in or not',
    async (path, route) => {
      const gateway = fakeGateway(() => ({ status: 401, text: 'Not signed in' }));
      const { default: Screen } = await route.lazy();
      const router = createMemoryRouter([{ path, element: <Screen /> }], { initialEntries: [path] });
      render(
        <QueryClientProvider client={createQueryClient()}>
          <ToastProvider>
            <RouterProvider router={router} />
          </ToastProvider>
        </QueryClientProvider>,
      );
      await waitFor(() =>
        expect(gateway.calls.map((call) => `${call.method} ${call.url}`)).toEqual(
          expect.arrayContaining((route.reads ?? []).map((read) => `GET ${read}`)),
        ),
      );
    },
  );
});
