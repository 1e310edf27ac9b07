// Appeals in headless Chromium against the real platform (ADR 0051): a clipper's rejected clip offers
// Appeal on the dashboard's Submissions tab (the dialog's live count, the appeal then pending); the admin
// overturns it in the Appeals tab with a reason; the clipper's tab then shows the clip approved and the
// appeal overturned with the admin's words.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from '../support/platform.js';
import { useBrowser } from './support/browser.js';
import { expectToast, newPerson, openSite, signInBrowser, signUpByApi } from './support/site.js';

const DESKTOP = { width: 1280, height: 900 };
const REJECTION = 'Not a gaming clip';
const OVERTURN = 'The game is on screen throughout';

describe('appeals in a browser', () => {
  const browser = useBrowser();
  let platform: Platform;
  let sid = '';
  let adminToken = '';
  const clipName = `Appealed clip ${Date.now().toString(36)}`;

  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(platform.url, path, init));
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    api(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    platform = await startPlatform();
    sid = await signUpByApi(platform.url, newPerson('apb'), 'a-good-password');
    adminToken = ((await (await post('/api/admin/verify-password', { password: E2E_ADMIN_PASSWORD }, {})).json()) as { token: string })
      .token;
    const created = await post(
      '/api/submissions',
      { name: clipName, url: `https://x.com/clipper/status/${Date.now()}7`, walletAddress: '' },
      { cookie: `clipit.sid=${sid}` },
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const rejected = await post(`/api/admin/submissions/${id}/reject`, { reason: REJECTION }, { authorization: `Bearer ${adminToken}` });
    expect(rejected.status).toBe(200);
    await rejected.body?.cancel();
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  async function dashboard(): Promise<Page> {
    await signInBrowser(browser.context, platform.url, sid);
    const page = await browser.newPage();
    await page.setViewportSize(DESKTOP);
    await openSite(page, `${platform.url}/clippers/dashboard`);
    await page.getByRole('heading', { level: 1, name: /^Welcome back/ }).waitFor();
    return page;
  }

  const row = (page: Page) => page.getByRole('list', { name: 'Recent submissions' }).getByRole('listitem').filter({ hasText: clipName });

  it('the clipper appeals a rejected clip from the Submissions tab; the admin overturns it; the clip is approved', async () => {
    const page = await dashboard();
    const clip = row(page);
    await clip.getByText(`Reason: ${REJECTION}`).waitFor();
    await clip.getByRole('button', { name: `Appeal ${clipName}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('0/1,000 characters').waitFor();
    await dialog.getByLabel('Why should the decision change?').fill('The game is on screen from the first second.');
    await dialog.getByText('44/1,000 characters').waitFor();
    await dialog.getByRole('button', { name: 'Send appeal' }).click();
    await clip.getByText('Appeal pending').waitFor();
    expect(await clip.getByRole('button', { name: `Appeal ${clipName}` }).count()).toBe(0);

    const admin = await browser.newPage();
    await openSite(admin, `${platform.url}/admin`);
    await admin.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await admin.getByRole('button', { name: 'Unlock' }).click();
    await admin.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await admin.getByRole('tab', { name: 'Appeals', exact: true }).click();
    const card = admin.locator('article').filter({ has: admin.getByRole('link', { name: clipName }) });
    await card.getByText('The game is on screen from the first second.').waitFor();
    await card.getByText(REJECTION).waitFor();
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Overturn' }).click();
    const decision = admin.getByRole('dialog');
    await decision.getByLabel('Reason').fill(OVERTURN);
    await decision.getByRole('button', { name: 'Overturn' }).click();
    await expectToast(admin, 'Appeal overturned', clipName);
    await card.getByText('Overturned', { exact: true }).first().waitFor();

    await page.reload();
    const after = row(page);
    await after.getByText(`Appeal overturned: ${OVERTURN}`).waitFor();
    await after.getByText('Approved', { exact: true }).waitFor();
  });
});
