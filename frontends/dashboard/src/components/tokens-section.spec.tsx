import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import type { MyToken } from '@clipit/web-api';
import { tokenAnswer } from '../testing/fixtures.js';
import { TokensSection } from './tokens-section.js';

/** Identity as the section sees it: the streamer's tokens, changed by POST and PATCH like the real one. */
function identity(
  start: MyToken[] = [
    tokenAnswer(),
    tokenAnswer({ id: 't-2', name: 'OLD', pumpFunLink: 'https://pump.fun/coin/old', description: null, isActive: 'false' }),
  ],
  refuse?: Reply,
) {
  let tokens = start;
  return fakeGateway((call: Call) => {
    if (call.method === 'GET' && call.url === '/api/tokens/mine') return { json: tokens };
    if (refuse) return refuse;
    const body = call.body as Partial<MyToken> & { isActive?: boolean };
    const active = (v: boolean | undefined, was: MyToken['isActive']) => (v === undefined ? was : v ? 'true' : 'false');
    if (call.method === 'POST' && call.url === '/api/tokens') {
      const made = tokenAnswer({
        id: 't-new',
        name: body.name!,
        pumpFunLink: body.pumpFunLink!,
        description: body.description ?? null,
        isActive: 'true',
      });
      tokens = [made, ...tokens];
      return { status: 201, json: made };
    }
    const id = /^\/api\/tokens\/([^/]+)$/.exec(call.url)?.[1];
    const token = tokens.find((t) => t.id === id);
    if (call.method === 'PATCH' && token) {
      const saved: MyToken = { ...token, ...body, isActive: active(body.isActive, token.isActive) } as MyToken;
      tokens = tokens.map((t) => (t.id === id ? saved : t));
      return { json: saved };
    }
    return { status: 404, text: 'Token not found' };
  });
}

const list = () => screen.findByRole('list', { name: 'Your tokens' });

describe("the streamer's tokens (spec 02 §3, §5 Token)", () => {
  it('lists name, link, description and Active / Inactive', async () => {
    identity();
    renderScreen(<TokensSection />);
    const [sam, old] = within(await list()).getAllByRole('listitem');
    expect(within(sam!).getByRole('heading', { name: 'SAM' })).toBeVisible();
    expect(within(sam!).getByRole('link', { name: 'https://pump.fun/coin/sam' })).toHaveAttribute('href', 'https://pump.fun/coin/sam');
    expect(sam).toHaveTextContent('The Sam Streams coin');
    expect(within(sam!).getByText('Active')).toHaveClass('clip-badge--success');
    expect(within(old!).getByText('Inactive')).toHaveClass('clip-badge--secondary');
    expect(within(old!).getByRole('button', { name: 'Activate OLD' })).toBeVisible();
  });

  it('says when there are none, and shows an error when the list fails', async () => {
    identity([]);
    const first = renderScreen(<TokensSection />);
    expect(await screen.findByText(/No tokens yet/)).toBeVisible();
    first.unmount();
    fakeGateway(() => ({ status: 403, text: 'Only streamers can manage tokens' }));
    renderScreen(<TokensSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your tokens are unavailable right now. Error: 403: Only streamers can manage tokens',
    );
  });

  it("shows checkToken's messages beside the fields and sends nothing while one is broken", async () => {
    const calls = identity();
    renderScreen(<TokensSection />);
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Add Token' }));
    const form = screen.getByRole('form', { name: 'Add a token' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'PumpFun Link' }), 'pump.fun');
    await userEvent.click(within(form).getByRole('button', { name: 'Create Token' }));
    expect(within(form).getByRole('textbox', { name: 'Token Name' })).toHaveAccessibleDescription('Token name is required');
    expect(within(form).getByRole('textbox', { name: 'PumpFun Link' })).toHaveAccessibleDescription('Please enter a valid PumpFun link');
    expect(calls.writes()).toEqual([]);
  });

  it("creates a token: the payload, 'Token created' and the new token listed", async () => {
    const calls = identity();
    renderScreen(<TokensSection />);
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Add Token' }));
    const form = screen.getByRole('form', { name: 'Add a token' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Token Name' }), ' NEW ');
    await userEvent.type(within(form).getByRole('textbox', { name: 'PumpFun Link' }), 'https://pump.fun/coin/new');
    await userEvent.click(within(form).getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('Token created')).toBeVisible();
    expect(calls.writes()).toEqual([
      { method: 'POST', url: '/api/tokens', body: { name: 'NEW', pumpFunLink: 'https://pump.fun/coin/new', description: null } },
    ]);
    await waitFor(async () => expect(within(await list()).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByRole('form', { name: 'Add a token' })).toBeNull();
  });

  it("edits a token: its values prefilled, the change sent, 'Token saved'", async () => {
    const calls = identity();
    renderScreen(<TokensSection />);
    await userEvent.click(within(await list()).getByRole('button', { name: 'Edit SAM' }));
    const form = screen.getByRole('form', { name: 'Edit SAM' });
    const name = within(form).getByRole('textbox', { name: 'Token Name' });
    expect(name).toHaveValue('SAM');
    expect(within(form).getByRole('textbox', { name: 'Description (optional)' })).toHaveValue('The Sam Streams coin');
    await userEvent.clear(name);
    await userEvent.type(name, 'SAMMY');
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Description (optional)' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save Token' }));
    expect(await screen.findByText('Token saved')).toBeVisible();
    expect(calls.writes()).toEqual([
      { method: 'PATCH', url: '/api/tokens/t-1', body: { name: 'SAMMY', pumpFunLink: 'https://pump.fun/coin/sam', description: null } },
    ]);
    expect(await within(await list()).findByRole('heading', { name: 'SAMMY' })).toBeVisible();
  });

  it('toggles a token active and inactive', async () => {
    const calls = identity();
    renderScreen(<TokensSection />);
    await userEvent.click(within(await list()).getByRole('button', { name: 'Deactivate SAM' }));
    expect(await screen.findByText('Token saved')).toBeVisible();
    expect(screen.getByText('SAM is now inactive.')).toBeVisible();
    expect(calls.writes()).toEqual([{ method: 'PATCH', url: '/api/tokens/t-1', body: { isActive: false } }]);
    expect(await screen.findByRole('button', { name: 'Activate SAM' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Activate OLD' }));
    await waitFor(() => expect(calls.writes().at(-1)).toEqual({ method: 'PATCH', url: '/api/tokens/t-2', body: { isActive: true } }));
  });

  it("toasts a refusal with the server's text", async () => {
    identity(undefined, { status: 403, text: 'You can only change your own tokens' });
    renderScreen(<TokensSection />);
    await userEvent.click(within(await list()).getByRole('button', { name: 'Deactivate SAM' }));
    expect(await screen.findByText('Failed to save token')).toBeVisible();
    expect(screen.getByText('You can only change your own tokens')).toBeVisible();
  });
});
