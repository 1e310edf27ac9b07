import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { API_KEY_MESSAGES } from '@clipit/field-rules';
import { formatDate } from '@clipit/ui';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import { expectListStates, held, stubClipboard, toasts } from '../testing/developer-access.test.js';
import { apiKeyAnswer } from '../testing/fixtures.js';
import { ApiKeysCard, type ApiKey } from './api-keys.js';

const DAY = 86_400_000;
const KEY = 'clipit_Zx9QwErTyUiOpAsDfGhJkLzXcVbNm1a2b3';
const NEW_ID = '5d0c1a7e-9f0b-4c3e-8a4f-1b2c3d4e5f60';

const writeText = stubClipboard();

/**
 * Developer as the card sees it through the gateway: the user's keys, made by POST and revoked by DELETE like
 * the real one. `refuse` answers every write instead; a write waits for `gate` when there is one.
 */
function developer(start: ApiKey[] = [apiKeyAnswer()], { refuse, gate }: { refuse?: Reply; gate?: Promise<void> } = {}) {
  let keys = start;
  return fakeGateway(async (call) => {
    if (call.method === 'GET' && call.url === '/api/keys') return { json: { keys } };
    if (gate) await gate;
    if (refuse) return refuse;
    if (call.method === 'POST' && call.url === '/api/keys') {
      const body = call.body as { name: string; scopes: ApiKey['scopes']; expiresAt: string | null };
      const made = { id: NEW_ID, prefix: KEY.slice(0, 12), scopes: body.scopes, expiresAt: body.expiresAt };
      keys = [{ ...made, name: body.name, createdAt: new Date().toISOString(), lastUsedAt: null }, ...keys];
      return { status: 201, json: { ...made, key: KEY } };
    }
    const id = /^\/api\/keys\/([^/]+)$/.exec(call.url)?.[1];
    if (call.method === 'DELETE' && keys.some((k) => k.id === id)) {
      keys = keys.filter((k) => k.id !== id);
      return { status: 204 };
    }
    return { status: 404, text: API_KEY_MESSAGES.keyNotFound };
  });
}

const list = () => screen.findByRole('list', { name: 'Your API keys' });
const form = () => screen.getByRole('form', { name: 'Create an API key' });
const reads = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url === '/api/keys').length;

describe('the Developer API card (issue 37, ADR 0053)', () => {
  it('lists each key: name, prefix, scopes, creation, last use and expiry, with the API reference linked', async () => {
    const soon = new Date(Date.now() + 30 * DAY).toISOString();
    developer([
      apiKeyAnswer({ scopes: ['campaigns:read', 'leaderboards:read'], lastUsedAt: '2026-11-27T09:30:00.000Z', expiresAt: soon }),
      apiKeyAnswer({ id: 'k-2', name: 'Old script', prefix: 'clipit_Qq111', expiresAt: new Date(Date.now() - DAY).toISOString() }),
      apiKeyAnswer({ id: 'k-3', name: 'Forever', prefix: 'clipit_Rr222' }),
    ]);
    renderScreen(<ApiKeysCard />);
    expect(screen.getByRole('heading', { name: 'Developer API', level: 2 })).toBeVisible();
    expect(screen.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs/v1');

    const [agency, old, forever] = within(await list()).getAllByRole('listitem');
    expect(within(agency!).getByRole('heading', { name: 'Agency reporting' })).toBeVisible();
    expect(agency).toHaveTextContent('clipit_Ab3dE…');
    expect(within(agency!).getByText('campaigns:read')).toHaveClass('clip-badge');
    expect(within(agency!).getByText('leaderboards:read')).toHaveClass('clip-badge');
    expect(within(agency!).queryByText('submissions:read')).toBeNull();
    expect(agency).toHaveTextContent(
      `Created ${formatDate('2026-11-20T10:00:00.000Z')} · Last used ${formatDate('2026-11-27T09:30:00.000Z')}`,
    );
    expect(agency).toHaveTextContent(`Expires ${formatDate(soon)}`);
    expect(old).toHaveTextContent('clipit_Qq111…');
    expect(old).toHaveTextContent('Never used');
    expect(within(old!).getByText('Expired')).toHaveClass('clip-badge--destructive');
    expect(forever).toHaveTextContent('No expiry');
    expect(forever).not.toHaveTextContent('Expire');
  });

  it("says when there are none, shows a skeleton while loading, and the server's text when the list fails", () =>
    expectListStates(<ApiKeysCard />, {
      serveNone: () => developer([]),
      list: 'Your API keys',
      empty: 'No API keys yet.',
      failed: 'Could not load your API keys',
    }));

  it('describes each scope beside its checkbox', async () => {
    developer();
    renderScreen(<ApiKeysCard />);
    await list();
    const scopes = within(form()).getByRole('group', { name: 'Scopes' });
    expect(
      within(scopes)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['campaigns:read', 'submissions:read', 'leaderboards:read']);
    expect(within(scopes).getByRole('checkbox', { name: 'submissions:read' })).toHaveAccessibleDescription(
      'Your own submissions as a clipper, with your earnings and payouts',
    );
    expect(within(form()).getByRole('combobox', { name: 'Expires' })).toHaveDisplayValue('Never');
  });

  it("shows the rules' words for a blank name and no scope, and sends nothing", async () => {
    const gateway = developer();
    renderScreen(<ApiKeysCard />);
    await list();
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    const name = within(form()).getByRole('textbox', { name: 'Key Name' });
    expect(name).toHaveAccessibleDescription(API_KEY_MESSAGES.nameRequired);
    expect(within(form()).getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription(API_KEY_MESSAGES.scopesRequired);

    await userEvent.type(name, '   ');
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'campaigns:read' }));
    expect(within(form()).getByRole('group', { name: 'Scopes' })).not.toHaveAccessibleDescription(API_KEY_MESSAGES.scopesRequired);
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    expect(name).toHaveAccessibleDescription(API_KEY_MESSAGES.nameRequired);

    await userEvent.type(name, 'CI bot');
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'campaigns:read' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    expect(name).not.toHaveAccessibleDescription(API_KEY_MESSAGES.nameRequired);
    expect(within(form()).getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription(API_KEY_MESSAGES.scopesRequired);
    expect(gateway.writes()).toEqual([]);
  });

  it('creates a key: the payload, the key shown once with Copy, the list refreshed, Done hides it for good', async () => {
    const { gate, release } = held();
    const gateway = developer(undefined, { gate });
    renderScreen(<ApiKeysCard />);
    await list();
    await userEvent.type(within(form()).getByRole('textbox', { name: 'Key Name' }), '  CI bot ');
    // Ticked out of order: sent in the rules' order.
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'leaderboards:read' }));
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'campaigns:read' }));
    await userEvent.selectOptions(within(form()).getByRole('combobox', { name: 'Expires' }), '90 days');
    const before = Date.now();
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    const after = Date.now();
    expect(within(form()).getByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull();

    const [sent] = gateway.writes();
    expect(sent).toMatchObject({
      method: 'POST',
      url: '/api/keys',
      body: { name: 'CI bot', scopes: ['campaigns:read', 'leaderboards:read'] },
    });
    const expiresAt = Date.parse((sent!.body as { expiresAt: string }).expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(after + 90 * DAY);
    const readsBefore = reads(gateway.calls);
    release();

    const shown = await screen.findByRole('region', { name: 'Your new API key' });
    expect(within(shown).getByRole('textbox', { name: 'API Key' })).toHaveValue(KEY);
    expect(within(shown).getByRole('textbox', { name: 'API Key' })).toHaveAttribute('readonly');
    expect(within(shown).getByRole('textbox', { name: 'API Key' })).toHaveFocus();
    expect(shown).toHaveTextContent('CI bot is ready. Copy the key now: it will not be shown again.');
    expect(screen.queryByRole('form', { name: 'Create an API key' })).toBeNull();

    await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(await within(toasts()).findByText('Copied')).toBeVisible();

    await waitFor(async () => expect(within(await list()).getAllByRole('listitem')).toHaveLength(2));
    expect(reads(gateway.calls)).toBeGreaterThan(readsBefore);
    const made = within(await list()).getAllByRole('listitem')[0]!;
    expect(within(made).getByRole('heading', { name: 'CI bot' })).toBeVisible();
    expect(made).toHaveTextContent('clipit_Zx9Qw…');
    expect(made).toHaveTextContent('Never used');
    // The list never shows the key itself.
    expect(within(await list()).queryByText(KEY, { exact: false })).toBeNull();

    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull();
    expect(screen.queryByDisplayValue(KEY)).toBeNull();
    expect(within(form()).getByRole('textbox', { name: 'Key Name' })).toHaveValue('');
    expect(within(form()).getByRole('checkbox', { name: 'campaigns:read' })).not.toBeChecked();
    expect(gateway.writes()).toHaveLength(1);
  });

  it('sends no expiry for Never', async () => {
    const gateway = developer();
    renderScreen(<ApiKeysCard />);
    await list();
    await userEvent.type(within(form()).getByRole('textbox', { name: 'Key Name' }), 'Board');
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'leaderboards:read' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByRole('region', { name: 'Your new API key' })).toBeVisible();
    expect(gateway.writes()).toEqual([
      { method: 'POST', url: '/api/keys', body: { name: 'Board', scopes: ['leaderboards:read'], expiresAt: null } },
    ]);
  });

  it("shows a refusal's text: the key limit in a toast, a rule's words at its field", async () => {
    developer(undefined, { refuse: { status: 409, text: API_KEY_MESSAGES.tooManyKeys } });
    const first = renderScreen(<ApiKeysCard />);
    await list();
    await userEvent.type(within(form()).getByRole('textbox', { name: 'Key Name' }), 'One too many');
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'submissions:read' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    expect(await within(toasts()).findByText('Could not create the key')).toBeVisible();
    expect(within(toasts()).getByText('You can have at most 20 keys; revoke one first')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull();
    // What was typed stays, to try again once a key is revoked.
    expect(within(form()).getByRole('textbox', { name: 'Key Name' })).toHaveValue('One too many');
    first.unmount();

    developer(undefined, { refuse: { status: 400, text: API_KEY_MESSAGES.expiryTooFar } });
    renderScreen(<ApiKeysCard />);
    await list();
    await userEvent.type(within(form()).getByRole('textbox', { name: 'Key Name' }), 'Far');
    await userEvent.click(within(form()).getByRole('checkbox', { name: 'submissions:read' }));
    await userEvent.selectOptions(within(form()).getByRole('combobox', { name: 'Expires' }), '1 year');
    await userEvent.click(within(form()).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(within(form()).getByRole('combobox', { name: 'Expires' })).toHaveAccessibleDescription(
        expect.stringContaining(API_KEY_MESSAGES.expiryTooFar),
      ),
    );
  });

  it("revokes a key only once confirmed: 'Key revoked', and it leaves the list", async () => {
    const gateway = developer([apiKeyAnswer(), apiKeyAnswer({ id: 'k-2', name: 'Old script', prefix: 'clipit_Qq111' })]);
    renderScreen(<ApiKeysCard />);
    const agency = () => within(screen.getByRole('list', { name: 'Your API keys' })).getAllByRole('listitem')[0]!;
    await userEvent.click(within(await list()).getByRole('button', { name: 'Revoke Agency reporting' }));
    const confirm = within(agency()).getByRole('group', { name: 'Revoke Agency reporting?' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(gateway.writes()).toEqual([]);

    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(within(agency()).queryByRole('button', { name: 'Revoke key' })).toBeNull();
    expect(within(agency()).getByRole('button', { name: 'Revoke Agency reporting' })).toHaveFocus();
    expect(gateway.writes()).toEqual([]);

    await userEvent.click(within(agency()).getByRole('button', { name: 'Revoke Agency reporting' }));
    await userEvent.click(within(agency()).getByRole('button', { name: 'Revoke key' }));
    expect(await within(toasts()).findByText('Key revoked')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'DELETE', url: `/api/keys/${apiKeyAnswer().id}`, body: undefined }]);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your API keys' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Agency reporting' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Old script' })).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Old script' }));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('No API keys yet.')).toBeVisible();
  });

  it("keeps a key whose revocation was refused, and toasts the server's text", async () => {
    developer(undefined, { refuse: { status: 503, text: 'Service temporarily unavailable' } });
    renderScreen(<ApiKeysCard />);
    await userEvent.click(within(await list()).getByRole('button', { name: 'Revoke Agency reporting' }));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect(await within(toasts()).findByText('Could not revoke the key')).toBeVisible();
    expect(within(toasts()).getByText('Service temporarily unavailable')).toBeVisible();
    expect(within(await list()).getByRole('heading', { name: 'Agency reporting' })).toBeVisible();
  });
});
