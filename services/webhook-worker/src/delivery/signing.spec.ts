import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { sealSecret } from '@clipit/service-kit';
import { Webhook } from 'standardwebhooks';
import { openSigners, SecretDoesNotOpenError, signatureHeaders } from './signing.js';

const key = randomBytes(32);
const newSecret = `whsec_${randomBytes(24).toString('base64')}`;
const oldSecret = `whsec_${randomBytes(24).toString('base64')}`;
const payload = JSON.stringify({ type: 'payout.sent', data: { amount: '12.50', note: 'ünïcödé' } });

describe('signatureHeaders', () => {
  it('signs with every secret, the current one first, so either verifies during a rotation', () => {
    const at = new Date();
    const headers = signatureHeaders('evt_1', at, payload, openSigners(key, [sealSecret(key, newSecret), sealSecret(key, oldSecret)]));
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    const [first, second, ...rest] = headers['webhook-signature'].split(' ');
    expect(rest).toEqual([]);
    expect(first).toBe(new Webhook(newSecret).sign('evt_1', at, payload));
    expect(second).toBe(new Webhook(oldSecret).sign('evt_1', at, payload));
    expect(new Webhook(newSecret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(new Webhook(oldSecret).verify(payload, headers)).toEqual(JSON.parse(payload));
  });

  it('fails verification for another secret or a changed body', () => {
    const headers = signatureHeaders('evt_2', new Date(), payload, openSigners(key, [sealSecret(key, newSecret)]));
    expect(() => new Webhook(oldSecret).verify(payload, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(newSecret).verify(payload.replace('12.50', '99.99'), headers)).toThrow('No matching signature found');
  });
});

describe('openSigners', () => {
  it('refuses a secret sealed under another key, naming which one and never the secret', () => {
    const elsewhere = sealSecret(randomBytes(32), oldSecret);
    expect(() => openSigners(key, [sealSecret(key, newSecret), elsewhere])).toThrow(SecretDoesNotOpenError);
    expect(() => openSigners(key, [sealSecret(key, newSecret), elsewhere])).toThrow(
      /sealed secret 2 of 2 does not open under WEBHOOK_SECRET_KEY/,
    );
    expect(() => openSigners(key, ['v1.tampered'])).toThrow(/sealed secret 1 of 1 does not open/);
  });

  it('refuses a sealed value that is no signing secret', () => {
    let thrown: unknown;
    try {
      openSigners(key, [sealSecret(key, 'whsec_!!not-base64!!')]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SecretDoesNotOpenError);
    expect((thrown as Error).message).toMatch(/sealed secret 1 of 1 is not a signing secret/);
    expect((thrown as Error).message).not.toContain('not-base64');
  });
});
