// What the specs of the Developer API card and the Webhooks card (issue 37, ADR 0053) do alike: a clipboard
// the test reads, a write held until the test lets it go, and the states of the user's list.
import { beforeEach, expect, jest } from '@jest/globals';
import { screen } from '@testing-library/react';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import type { ReactElement } from 'react';

/** The clipboard's writeText, reset before each test of the file that calls this. */
export function stubClipboard() {
  const writeText = jest.fn<(text: string) => Promise<void>>();
  beforeEach(() => {
    writeText.mockReset().mockResolvedValue(undefined);
    // userEvent.setup() installs its own clipboard stub; these specs use the direct API, so the card sees this one.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  return writeText;
}

/** A write the test lets go when it wants (to see the card while the call is pending). */
export function held() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

export const toasts = () => screen.getByRole('region', { name: 'Notifications (F8)' });

/**
 * The card says `empty` when there is nothing (`serveNone` plays that gateway), shows a skeleton while its list
 * loads, and the server's text after `failed` when the list fails.
 */
export async function expectListStates(
  card: ReactElement,
  { serveNone, list, empty, failed }: { serveNone: () => void; list: string; empty: string; failed: string },
) {
  serveNone();
  const first = renderScreen(card);
  expect(await screen.findByText(empty)).toBeVisible();
  expect(screen.queryByRole('list', { name: list })).toBeNull();
  first.unmount();

  fakeGateway(() => new Promise<Reply>(() => undefined));
  const second = renderScreen(card);
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  expect(document.querySelector('.clip-skeleton')).not.toBeNull();
  second.unmount();

  fakeGateway(() => ({ status: 503, text: 'Service temporarily unavailable' }));
  renderScreen(card);
  expect(await screen.findByRole('alert')).toHaveTextContent(`${failed}: Service temporarily unavailable`);
  expect(screen.queryByText(empty)).toBeNull();
}
