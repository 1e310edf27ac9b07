// Component tests: a screen inside what the shell gives every remote screen (query client with the
// spec's policies, toasts, a router), with the gateway played by a recorded fake fetch.
// The jest-dom matchers (toBeVisible, toHaveAttribute, …) for every spec that renders through here.
import '@testing-library/jest-dom/jest-globals';
import { ToastProvider } from '@clipit/ui';
import { configureHttp, createQueryClient } from '@clipit/web-api';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from '@clipit/router';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

export type Reply = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> };
export type Handler = (call: Call) => Reply | Promise<Reply>;

/** Installs a fake gateway: every call is recorded, `handler` decides the answer (404 by default). */
export function fakeGateway(handler: Handler = () => ({ status: 404, text: 'No such route' })) {
  const calls: Call[] = [];
  configureHttp({
    baseUrl: '',
    fetch: async (input, init) => {
      const raw = init?.body;
      const body = raw instanceof FormData ? raw : typeof raw === 'string' ? (JSON.parse(raw) as unknown) : undefined;
      const call: Call = { method: init?.method ?? 'GET', url: input, body };
      calls.push(call);
      const reply = await handler(call);
      const status = reply.status ?? 200;
      const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
      const headers = new Map(Object.entries(reply.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      // A minimal Response (jsdom has none): what @clipit/web-api reads of one.
      return {
        ok: status >= 200 && status < 300,
        status,
        statusText: status === 404 ? 'Not Found' : '',
        headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
        text: async () => text,
        json: async () => JSON.parse(text) as unknown,
      } as Response;
    },
  });
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}

export interface Rendered extends RenderResult {
  queryClient: QueryClient;
}

/**
 * Renders `element` at `path` with the shell's providers; `entry` is the address opened (path by default;
 * give one with a query or a #fragment). Any other path shows "elsewhere".
 */
export function renderScreen(element: ReactElement, path = '/', entry = path): Rendered {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [entry] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
