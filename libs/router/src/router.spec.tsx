import '@testing-library/jest-dom/jest-globals';
import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, use, type ReactNode } from 'react';
import { Link, NavLink } from './links.js';
import {
  createMemoryRouter,
  MemoryRouter,
  Outlet,
  Route,
  RouterProvider,
  Routes,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from './router.js';

function Layout() {
  const matches = useMatches();
  const navigation = useNavigation();
  const title = (matches.at(-1)?.handle as { title?: string } | undefined)?.title ?? '';
  return (
    <div data-busy={navigation.state}>
      <h1>{title}</h1>
      <nav>
        <NavLink to="/" end className={({ isActive }) => (isActive ? 'on' : 'off')}>
          Home
        </NavLink>
        <NavLink to="/clipper/1">First clipper</NavLink>
        <Link to="/discover?tab=streamers">Streamers</Link>
      </nav>
      <Suspense fallback={<p>spinner</p>}>
        <Outlet />
      </Suspense>
    </div>
  );
}

function Profile() {
  const { userId } = useParams();
  return <p>profile {userId}</p>;
}

function Discover() {
  const [params, setParams] = useSearchParams();
  return (
    <div>
      <p>tab {params.get('tab') ?? 'clippers'}</p>
      <button type="button" onClick={() => setParams({ tab: 'clippers' }, { replace: true })}>
        Clippers
      </button>
    </div>
  );
}

function Boom(): never {
  throw new Error('page broke');
}

function Oops() {
  const error = useRouteError() as Error;
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div>
      <p>caught: {error.message}</p>
      <button type="button" onClick={() => navigate(location, { replace: true })}>
        Retry
      </button>
    </div>
  );
}

function table(extra: { path: string; element: ReactNode; handle?: unknown }[] = []) {
  return [
    {
      element: <Layout />,
      children: [
        {
          errorElement: <Oops />,
          children: [
            { path: '/', handle: { title: 'Home' }, element: <p>home page</p> },
            { path: '/clipper/:userId', handle: { title: 'Profile' }, element: <Profile /> },
            { path: '/discover', handle: { title: 'Discover' }, element: <Discover /> },
            ...extra,
            { path: '*', handle: { title: 'Not found' }, element: <p>404</p> },
          ],
        },
      ],
    },
  ];
}

describe('RouterProvider', () => {
  it('renders the layout and the matched page, follows links without a page load, and marks the current one', () => {
    const router = createMemoryRouter(table(), { initialEntries: ['/'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading')).toHaveTextContent('Home');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveClass('on');
    expect(screen.getByRole('link', { name: 'Streamers' })).toHaveAttribute('href', '/discover?tab=streamers');

    fireEvent.click(screen.getByRole('link', { name: 'First clipper' }));
    expect(screen.getByText('profile 1')).toBeInTheDocument();
    expect(screen.getByRole('heading')).toHaveTextContent('Profile');
    expect(screen.getByRole('link', { name: 'First clipper' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(router.history.location.pathname).toBe('/clipper/1');

    fireEvent.click(screen.getByRole('link', { name: 'Streamers' }));
    expect(screen.getByText('tab streamers')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clippers' }));
    expect(screen.getByText('tab clippers')).toBeInTheDocument();
    expect(router.history.location.search).toBe('?tab=clippers');

    act(() => router.navigate(-1));
    expect(screen.getByText('profile 1')).toBeInTheDocument();
    act(() => router.navigate('/nowhere'));
    expect(screen.getByText('404')).toBeInTheDocument();
  });

  it('leaves a click with a modifier key, or on a link opening elsewhere, to the browser', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <Link to="/feed" target="_blank">
              Feed
            </Link>
          ),
        },
        { path: '/x', element: <Link to="/feed">Plain</Link> },
      ],
      {
        initialEntries: ['/x'],
      },
    );
    render(<RouterProvider router={router} />);
    // jsdom then attempts the browser's own navigation and says it cannot.
    const jsdomSays = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const link = screen.getByRole('link', { name: 'Plain' });
    fireEvent.click(link, { ctrlKey: true });
    fireEvent.click(link, { button: 1 });
    expect(router.history.location.pathname).toBe('/x');
    await new Promise((resolve) => setTimeout(resolve, 10));
    jsdomSays.mockRestore();
  });

  it('shows the errorElement when a page throws, with the error, and clears it on the next navigation', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let broken = true;
    function Flaky() {
      if (broken) Boom();
      return <p>fixed</p>;
    }
    const router = createMemoryRouter(table([{ path: '/flaky', element: <Flaky /> }]), { initialEntries: ['/flaky'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByText('caught: page broke')).toBeInTheDocument();
    // The layout around it still renders.
    expect(screen.getByRole('link', { name: 'Home' })).toBeInTheDocument();
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByText('fixed')).toBeInTheDocument();
    errors.mockRestore();
  });

  it('keeps the current page while the next one is loading, says it is loading, then shows it', async () => {
    let resolve!: (text: string) => void;
    const later = new Promise<string>((r) => (resolve = r));
    function Slow() {
      return <p>{use(later)}</p>;
    }
    // The suspending page renders inside the layout's Suspense boundary, which is already showing.
    const router = createMemoryRouter(table([{ path: '/slow', element: <Slow /> }]), { initialEntries: ['/'] });
    const { container } = render(<RouterProvider router={router} />);
    expect(container.firstElementChild).toHaveAttribute('data-busy', 'idle');
    await act(async () => router.navigate('/slow'));
    expect(screen.getByText('home page')).toBeInTheDocument();
    expect(screen.queryByText('spinner')).not.toBeInTheDocument();
    expect(container.firstElementChild).toHaveAttribute('data-busy', 'loading');
    // The links already point at where the page is going.
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    await act(async () => {
      resolve('slow page');
      await later;
    });
    expect(screen.getByText('slow page')).toBeInTheDocument();
    expect(container.firstElementChild).toHaveAttribute('data-busy', 'idle');
  });
});

describe('MemoryRouter and Routes', () => {
  it('matches Route children and gives their params', () => {
    render(
      <MemoryRouter initialEntries={['/clipper/9']}>
        <Routes>
          <Route path="/clipper/:userId" element={<Profile />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('profile 9')).toBeInTheDocument();
  });

  it('refuses hooks outside a router with a clear message', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Link to="/">x</Link>)).toThrow('a router hook or link was used outside a router (RouterProvider or MemoryRouter)');
    errors.mockRestore();
  });
});
