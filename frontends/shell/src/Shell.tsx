import { ThemeProvider, ToastProvider } from '@clipit/ui';
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { RouterProvider } from '@clipit/router';
import type { RemoteState, SiteStore } from './federation/site.js';
import { LiveNotifications } from './live/LiveNotifications.js';
import { navigateTo, routerFor } from './routing/router.js';
import { SiteContext } from './routing/site-context.js';

/** Which build of each remote this page runs, as `<meta name="clipit-remote:<name>" content="<build id>">` (React hoists them into <head>). */
function RemoteBuilds({ remotes }: { remotes: readonly RemoteState[] }) {
  return remotes.map((remote) =>
    remote.status === 'loaded' ? <meta key={remote.name} name={`clipit-remote:${remote.name}`} content={remote.buildId} /> : null,
  );
}

/**
 * The page: the providers every screen shares, once (queries, theme, the one toast region, which
 * remote screens reach through the shared @clipit/ui singleton), around the router. The router
 * always renders the frame: around the remotes' pages when they are loaded, around the wait or the
 * failure before that.
 */
export function Shell({ store, queryClient }: { store: SiteStore; queryClient: QueryClient }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const retry = useCallback(() => void store.retry(), [store]);
  const retrying = state.phase !== 'starting' && state.retrying;
  const site = useMemo(() => ({ phase: state.phase, retry, retrying, load: store.load }), [state.phase, retry, retrying, store]);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>
          <SiteContext value={site}>
            {state.phase === 'ready' && <RemoteBuilds remotes={state.remotes} />}
            <RouterProvider router={routerFor(state, store.screenOf)} />
            <LiveNotifications navigate={navigateTo} />
          </SiteContext>
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
