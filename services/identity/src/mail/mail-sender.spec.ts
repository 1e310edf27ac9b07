import { jest } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';

// nodemailer is loaded for MAIL_DRIVER=smtp only (ADR 0046): `npm start`'s outbox driver never needs it.
let nodemailerLoads = 0;
const transports: unknown[] = [];
jest.unstable_mockModule('nodemailer', () => {
  nodemailerLoads += 1;
  return {
    createTransport: (options: unknown) => {
      transports.push(options);
      return { sendMail: async () => ({}), close: () => undefined };
    },
  };
});

const { openMailSender } = await import('./mail-sender.js');

const config = {
  MAIL_FROM: 'CLIP IT <no-reply@clipit.local>',
  SMTP_HOST: 'smtp.example.com',
  SMTP_PORT: 587,
  SMTP_SECURE: false,
  SMTP_USER: '',
  SMTP_PASSWORD: '',
  SMTP_TIMEOUT_MS: 5000,
};

describe('openMailSender', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-mail-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes to the outbox folder without loading nodemailer', async () => {
    const sender = await openMailSender({ ...config, MAIL_DRIVER: 'outbox', MAIL_OUTBOX_DIR: dir }, pino({ level: 'silent' }));
    expect(sender.driver).toBe('outbox');
    await sender.send({ to: 'a@example.com', subject: 'Hello', text: 'Hi' });
    expect(await readdir(dir)).toHaveLength(1);
    expect(nodemailerLoads).toBe(0);
  });

  it('loads nodemailer for the smtp driver and builds its transport from the SMTP settings', async () => {
    const sender = await openMailSender({ ...config, MAIL_DRIVER: 'smtp', MAIL_OUTBOX_DIR: dir }, pino({ level: 'silent' }));
    expect(sender.driver).toBe('smtp');
    expect(nodemailerLoads).toBe(1);
    expect(transports).toEqual([expect.objectContaining({ host: 'smtp.example.com', port: 587, secure: false })]);
    await sender.close();
  });
});
