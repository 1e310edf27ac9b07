// The clipper job application in headless Chromium against the real platform (gateway → campaigns):
// reached from /clippers/auth, the shared rules shown beside the fields before anything is sent, then a
// stored application and the screen that says so; a second one for the same email refused in a toast.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startPlatform, type Platform } from '../support/platform.js';
import { SCREENSHOTS, useBrowser } from './support/browser.js';
import { expectToast, openSite, untilInPage } from './support/site.js';

describe('the apply page (/clippers/apply)', () => {
  const browser = useBrowser();
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform?.stop();
  });
  const writes = (page: Page) => {
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/')) sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    return sent;
  };
  const email = `apply${Date.now().toString(36)}@example.com`;

  async function fillGood(page: Page) {
    const form = page.getByRole('form', { name: 'Clipper application' });
    await form.getByLabel('Full Name').fill('Browser Applicant');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Social Media Handles (optional)').fill('@applicant on X');
    await form.getByLabel('Availability (hours per week, optional)').fill('25');
    await form.getByLabel('Experience').fill('Two years of cutting live-stream highlights into vertical clips.');
    await form.getByLabel('Why do you want to join?').fill('I clip every day and want to be paid per approved clip.');
    return form;
  }

  it('is linked from /clippers/auth, shows every broken rule and sends nothing, then stores a good application', async () => {
    const page = await browser.newPage();
    const sent = writes(page);
    await openSite(page, `${platform.url}/clippers/auth`);
    await page.getByRole('link', { name: 'Apply to join the team' }).click();
    await page.waitForURL(`${platform.url}/clippers/apply`);
    await page.getByRole('heading', { name: 'Apply to Clip for CLIP IT' }).waitFor();
    await untilInPage(page, "document.title === 'Apply to Clip'");

    const form = page.getByRole('form', { name: 'Clipper application' });
    await form.getByLabel('Full Name').fill('A');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Availability (hours per week, optional)').fill('200');
    await form.getByLabel('Experience').fill('too short');
    await form.getByRole('button', { name: 'Submit Application' }).click();
    for (const message of [
      'Full name must be at least 2 characters',
      'Please enter a valid email address',
      'Cannot exceed 168 hours per week',
      'Please provide more details about your experience (at least 20 characters)',
      'Please tell us more about why you want to join (at least 20 characters)',
    ]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    expect(sent).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'apply-messages.png'), fullPage: true });

    await fillGood(page);
    await form.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByRole('heading', { name: 'Application received' }).waitFor();
    await expectToast(page, 'Application submitted!', "Thanks for applying! We'll review your application and get back to you by email.");
    expect(sent).toEqual(['POST /api/clipper-applications']);
    const rows = await platform.campaignsDb.query(
      'SELECT full_name, availability_hours, status FROM clipper_applications WHERE email = $1',
      [email],
    );
    expect(rows.rows).toEqual([{ full_name: 'Browser Applicant', availability_hours: 25, status: 'pending' }]);
    await page.screenshot({ path: join(SCREENSHOTS, 'apply-received.png'), fullPage: true });
  });

  it('refuses a second application for the same email in a toast and keeps the form', async () => {
    const page = await browser.newPage();
    await openSite(page, `${platform.url}/clippers/apply`);
    const form = await fillGood(page);
    await form.getByRole('button', { name: 'Submit Application' }).click();
    // Errors show as the site shows every refusal: "status: the server's text".
    await expectToast(page, 'Failed to submit application', '409: An application for this email is already pending review');
    expect(await form.getByLabel('Full Name').inputValue()).toBe('Browser Applicant');
    await page.screenshot({ path: join(SCREENSHOTS, 'apply-already-pending.png'), fullPage: true });
  });
});
