import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router/dom';
import type { RemoteState, SiteStore } from './federation/site.js';
import { Frame } from './frame/Frame.js';
import { RemoteUnavailable } from './frame/RemoteUnavailable.js';
import { routerFor } from './routing/router.js';
import { SiteContext } from './routing/site-context.js';

/** Which build of each remote this page runs, as `<meta name="clipit-remote:<name>" content="<build id>">` (React hoists them into <head>). */
function RemoteBuilds({ remotes }: { remotes: readonly RemoteState[] }) {
  return remotes.map((remote) =>
    remote.status === 'loaded' ? <meta key={remote.name} name={`clipit-remote:${remote.name}`} content={remote.buildId} /> : null,
  );
}

export function Shell({ store, queryClient }: { store: SiteStore; queryClient: QueryClient }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const retry = useCallback(() => void store.retry(), [store]);
  const retrying = state.phase !== 'starting' && state.retrying;
  const site = useMemo(() => ({ retry, retrying }), [retry, retrying]);
  return (
    <QueryClientProvider client={queryClient}>
      <SiteContext value={site}>
        {state.phase === 'ready' ? (
          <>
            <RemoteBuilds remotes={state.remotes} />
            <RouterProvider router={routerFor(state.remotes)} />
          </>
        ) : (
          <Frame busy={state.phase === 'starting'}>
            {state.phase === 'unavailable' && <RemoteUnavailable onRetry={retry} retrying={retrying} />}
          </Frame>
        )}
      </SiteContext>
    </QueryClientProvider>
  );
}
