import { checkWebhookEvents, checkWebhookUrl, isPlainlyPrivateHost, WEBHOOK_MESSAGES } from './webhook.js';

describe('webhook endpoint rules', () => {
  const strict = { allowLoopback: false };
  const loose = { allowLoopback: true };

  it('keeps a public https URL, trimmed, without its fragment', () => {
    expect(checkWebhookUrl('  https://hooks.example.com/clipit?x=1#top ', strict)).toEqual({ url: 'https://hooks.example.com/clipit?x=1' });
  });

  it('refuses blank, relative, other schemes, credentials, plain http and what is too long, naming why', () => {
    expect(checkWebhookUrl('', strict)).toEqual({ error: WEBHOOK_MESSAGES.urlRequired });
    expect(checkWebhookUrl('/webhooks', strict)).toEqual({ error: WEBHOOK_MESSAGES.urlInvalid });
    expect(checkWebhookUrl('ftp://example.com/x', strict)).toEqual({ error: WEBHOOK_MESSAGES.urlInvalid });
    expect(checkWebhookUrl('https://user:pw@example.com/x', strict)).toEqual({ error: WEBHOOK_MESSAGES.urlCredentials });
    expect(checkWebhookUrl('http://example.com/x', strict)).toEqual({ error: WEBHOOK_MESSAGES.urlNotHttps });
    expect(checkWebhookUrl(`https://example.com/${'a'.repeat(2048)}`, strict)).toEqual({ error: WEBHOOK_MESSAGES.urlTooLong });
  });

  it('refuses plainly private and local hosts; loopback only where allowed, and then over http too', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[::1]',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:10.0.0.1]',
      'printer.local',
      'db.internal',
      '0.0.0.0',
    ]) {
      expect(checkWebhookUrl(`https://${host}/x`, strict)).toEqual({ error: WEBHOOK_MESSAGES.urlPrivate });
    }
    expect(checkWebhookUrl('http://127.0.0.1:4000/x', loose)).toEqual({ url: 'http://127.0.0.1:4000/x' });
    expect(checkWebhookUrl('http://localhost:4000/x', loose)).toEqual({ url: 'http://localhost:4000/x' });
    expect(checkWebhookUrl('https://10.0.0.1/x', loose)).toEqual({ error: WEBHOOK_MESSAGES.urlPrivate });
    expect(isPlainlyPrivateHost('172.32.0.1')).toBe(false);
    expect(isPlainlyPrivateHost('8.8.8.8')).toBe(false);
  });

  it('keeps the events each once in their own order, refusing none or an unknown one', () => {
    expect(checkWebhookEvents(['payout.sent', 'submission.approved', 'payout.sent'])).toEqual({
      events: ['submission.approved', 'payout.sent'],
    });
    expect(checkWebhookEvents([])).toEqual({ error: WEBHOOK_MESSAGES.eventsRequired });
    expect(checkWebhookEvents(['submission.created'])).toEqual({ error: WEBHOOK_MESSAGES.badEvent });
  });
});
