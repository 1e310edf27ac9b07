// The shell's route table: every page the loaded remotes declare, inside the frame, plus the 404 page.
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigate, useNavigation, useRouteError, type RouteObject } from '@clipit/router';
import type { Routing, SiteStore } from '../federation/site.js';
import { BottomBar } from '../frame/BottomBar.js';
import { Frame } from '../frame/Frame.js';
import { SiteHeader } from '../frame/SiteHeader.js';
import { RemoteUnavailable } from '../frame/RemoteUnavailable.js';
import { NOT_FOUND_DESCRIPTION, NOT_FOUND_TITLE, NotFoundPage } from '../pages/NotFoundPage.js';
import { RemoteScreen } from './RemoteScreen.js';
import { useSite } from './site-context.js';
import { SITE_DESCRIPTION, SITE_TITLE, useDocumentTitle } from './useDocumentTitle.js';

interface PageHandle {
  title: string;
  description: string;
}

const handleOf = (handle: unknown): PageHandle | undefined =>
  typeof handle === 'object' && handle !== null && typeof (handle as PageHandle).title === 'string' ? (handle as PageHandle) : undefined;

function Layout() {
  const matches = useMatches();
  const navigation = useNavigation();
  const page = handleOf(matches.at(-1)?.handle);
  useDocumentTitle(page?.title ?? SITE_TITLE, page?.description ?? SITE_DESCRIPTION);
  return (
    <Frame header={<SiteHeader />} footer={<BottomBar />} busy={navigation.state === 'loading'}>
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </Frame>
  );
}

/** The frame while the remotes are being found, or when /remotes.json could not be read (with Retry). */
function FallbackLayout() {
  const { phase, retry, retrying } = useSite();
  return (
    <Frame header={<SiteHeader />} footer={<BottomBar />} busy={phase === 'starting'}>
      {phase === 'unavailable' && <RemoteUnavailable onRetry={retry} retrying={retrying} />}
    </Frame>
  );
}

/** A page threw while rendering: said inside the frame, and Retry renders it again. */
function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => console.error(error), [error]);
  return <RemoteUnavailable onRetry={() => void navigate(location, { replace: true })} />;
}

/**
 * A path no loaded remote claims. While a remote is missing it may be that remote's page, so the frame
 * says that part could not be loaded (with Retry) instead of claiming the page does not exist.
 */
function Unclaimed({ remoteMissing }: { remoteMissing: boolean }) {
  const { retry, retrying } = useSite();
  return remoteMissing ? <RemoteUnavailable onRetry={retry} retrying={retrying} /> : <NotFoundPage />;
}

export function siteRoutes(routing: Routing, screenOf: SiteStore['screenOf']): RouteObject[] {
  const pages: RouteObject[] = routing.pages.map(({ remote, page }) => ({
    path: page.path,
    handle: { title: page.title, description: page.description } satisfies PageHandle,
    element: <RemoteScreen load={screenOf(remote, page.path)} />,
  }));
  const { remoteMissing } = routing;
  return [
    {
      element: <Layout />,
      children: [
        {
          // Errors render here, inside the frame, not in place of it.
          errorElement: <RouteError />,
          children: [
            ...pages,
            {
              path: '*',
              handle: (remoteMissing
                ? { title: SITE_TITLE, description: SITE_DESCRIPTION }
                : { title: NOT_FOUND_TITLE, description: NOT_FOUND_DESCRIPTION }) satisfies PageHandle,
              element: <Unclaimed remoteMissing={remoteMissing} />,
            },
          ],
        },
      ],
    },
  ];
}

/** Before the remotes are known: every path is the frame around the wait (or the failure). */
export function fallbackRoutes(): RouteObject[] {
  return [{ path: '*', element: <FallbackLayout /> }];
}
