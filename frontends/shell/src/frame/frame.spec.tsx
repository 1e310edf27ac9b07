import '@testing-library/jest-dom/jest-globals';
import type { AddClipDialogProps } from '@clipit/frontend-contracts';
import { ThemeProvider, ToastProvider } from '@clipit/ui';
import { createQueryClient, currentUserKey, type CurrentUser } from '@clipit/web-api';
import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from '@clipit/router';
import { RemoteLoadError } from '../federation/registry.js';
import { SiteContext, type SiteActions } from '../routing/site-context.js';
import { BottomBar } from './BottomBar.js';
import { SiteHeader } from './SiteHeader.js';

type Load = SiteActions['load'];

const user = { id: 'u1', twitterUsername: 'ada', displayName: 'Ada', role: 'clipper' } as CurrentUser;

function renderFrame(ui: ReactNode, { path = '/', load, signedIn }: { path?: string; load?: Load; signedIn?: boolean } = {}) {
  const queryClient = createQueryClient();
  if (signedIn !== undefined) queryClient.setQueryData(currentUserKey, signedIn ? user : null);
  const site: SiteActions = {
    phase: 'ready',
    retry: () => undefined,
    retrying: false,
    load: load ?? (((remote: string) => Promise.reject(new RemoteLoadError(remote, 'down'))) as Load),
  };
  // A declarative router: jsdom has no fetch Request, which the data routers need to navigate.
  const router = { pathname: path };
  function Where() {
    router.pathname = useLocation().pathname;
    return null;
  }
  render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>
          <SiteContext value={site}>
            <MemoryRouter initialEntries={[path]}>
              {ui}
              <Where />
            </MemoryRouter>
          </SiteContext>
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return router;
}

const loadDialog = (Dialog: (props: AddClipDialogProps) => ReactNode) =>
  jest.fn(() => Promise.resolve({ default: Dialog })) as unknown as Load;

describe('the mobile bottom bar', () => {
  it('links Clips, Discover and Login and marks the current one', async () => {
    const router = renderFrame(<BottomBar />, { path: '/feed' });
    const bar = screen.getByRole('navigation', { name: 'Quick navigation' });
    expect(within(bar).getByRole('link', { name: 'Clips' })).toHaveAttribute('aria-current', 'page');
    expect(within(bar).getByRole('link', { name: 'Discover' })).not.toHaveAttribute('aria-current');
    await userEvent.click(within(bar).getByRole('link', { name: 'Login' }));
    expect(router.pathname).toBe('/login');
    expect(within(bar).getByRole('link', { name: 'Login' })).toHaveAttribute('aria-current', 'page');
    expect(within(bar).getByRole('link', { name: 'Clips' })).not.toHaveAttribute('aria-current');
  });

  it('opens the public remote’s add-clip dialog with Add, and closes it through onOpenChange', async () => {
    const load = loadDialog(({ open, onOpenChange }) =>
      open ? (
        <div role="dialog" aria-label="Add a clip">
          <button type="button" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
        </div>
      ) : null,
    );
    renderFrame(<BottomBar />, { path: '/feed', load });
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('dialog', { name: 'Add a clip' })).toBeVisible();
    expect(load as unknown as jest.Mock).toHaveBeenCalledWith('public', './AddClipDialog');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Opened again without loading again.
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('dialog', { name: 'Add a clip' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('says adding clips is unavailable when the dialog cannot be loaded, and tries again on the next press', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = jest.fn(((remote: string) => Promise.reject(new RemoteLoadError(remote, 'down'))) as Load);
    renderFrame(<BottomBar />, { path: '/feed', load: load as Load });
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Unavailable');
    expect(toast).toHaveTextContent('Adding clips is unavailable right now. Please try again.');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(load).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('says so too when the loaded dialog throws while rendering, and keeps the bar', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = loadDialog(() => {
      throw new Error('broken dialog');
    });
    renderFrame(<BottomBar />, { path: '/feed', load });
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Adding clips is unavailable right now. Please try again.');
    expect(screen.getByRole('navigation', { name: 'Quick navigation' })).toBeInTheDocument();
    error.mockRestore();
  });
});

describe('the header', () => {
  it('shows Login and no Dashboard or Logout when signed out', () => {
    renderFrame(<SiteHeader />, { signedIn: false });
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(main).getByRole('link', { name: 'ClipTok' })).toHaveAttribute('href', '/feed');
    expect(within(main).getByRole('link', { name: 'Client Services' })).toHaveAttribute('href', '/client-services');
    expect(within(main).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('link', { name: 'Logout' })).toBeNull();
  });

  it('shows Dashboard and a plain Logout link when signed in', () => {
    renderFrame(<SiteHeader />, { signedIn: true });
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/clippers/dashboard');
    expect(screen.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });

  it('opens the outside links in a new tab, to the default URLs without a configuration', () => {
    renderFrame(<SiteHeader />, { signedIn: false });
    const buy = screen.getByRole('link', { name: 'Buy $CLIP (opens in a new tab)' });
    expect(buy).toHaveAttribute('href', 'https://pump.fun');
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    for (const name of ['Community Chat', 'X', 'Telegram', 'Discord']) {
      expect(screen.getByRole('link', { name: `${name} (opens in a new tab)` })).toHaveAttribute('target', '_blank');
    }
  });

  it('toggles the theme on <html> and remembers it', async () => {
    renderFrame(<SiteHeader />, { signedIn: false });
    expect(document.documentElement).toHaveClass('dark');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).toHaveClass('light');
    expect(window.localStorage.getItem('clip-theme')).toBe('light');
    expect(screen.getByRole('button', { name: 'Switch to dark theme' })).toBeInTheDocument();
  });

  it('has a Discover menu button that works from the keyboard', async () => {
    const router = renderFrame(<SiteHeader />, { signedIn: false });
    const button = screen.getByRole('button', { name: 'Discover' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'Discover' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(within(menu).getByRole('menuitem', { name: 'Discover Creators' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Leaderboard' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Discover Creators' })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(within(menu).getByRole('menuitem', { name: 'Leaderboard' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();

    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Leaderboard' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(router.pathname).toBe('/leaderboard');
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await userEvent.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens the navigation in a drawer that closes when a link is followed', async () => {
    const router = renderFrame(<SiteHeader />, { signedIn: true });
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/clippers/dashboard');
    expect(within(drawer).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
    await userEvent.click(within(drawer).getByRole('link', { name: 'Discover Creators' }));
    expect(router.pathname).toBe('/discover');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
