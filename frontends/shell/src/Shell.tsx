import { ThemeProvider, ToastProvider } from '@clipit/ui';
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { RouterProvider } from '@clipit/router';
import type { RemoteState, SiteState, SiteStore } from './federation/site.js';
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
 * The site's state, its changes rendered as transitions: React renders them in slices between frames
 * (the page's first screen, with its frame, is the biggest render there is), so a phone's main thread is
 * never held in one long task by them; what is on screen stays until the new state is ready.
 */
function useSiteState(store: SiteStore): SiteState {
  const [state, setState] = useState(store.getState);
  useEffect(() => {
    const update = () => startTransition(() => setState(store.getState()));
    const unsubscribe = store.subscribe(update);
    update(); // a change between the first render and the subscription
    return unsubscribe;
  }, [store]);
  return state;
}

/**
 * The page: the providers every screen shares, once (queries, theme, the one toast region, which
 * remote screens reach through the shared @clipit/ui singleton), around the router. The router
 * always renders the frame: around the remotes' pages when they are loaded, around the wait or the
 * failure before that.
 */
export function Shell({ store, queryClient }: { store: SiteStore; queryClient: QueryClient }) {
  const state = useSiteState(store);
  const retry = useCallback(() => void store.retry(), [store]);
  const retrying = state.phase !== 'starting' && state.retrying;
  const site = useMemo(() => ({ phase: state.phase, retry, retrying, load: store.load }), [state.phase, retry, retrying, store]);
  // The same element while the router is the same: a remote's code arriving (the others load when the
  // browser is idle) changes the store but not the page, which is then not rendered again.
  const router = routerFor(state, store.screenOf);
  const routes = useMemo(() => <RouterProvider router={router} />, [router]);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>
          <SiteContext value={site}>
            {state.phase === 'ready' && <RemoteBuilds remotes={state.remotes} />}
            {routes}
            <LiveNotifications navigate={navigateTo} />
          </SiteContext>
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
