// The mail port (ADR 0031): identity hands a message to a MailSender and does not know where it goes.
// - smtp: a relay named by SMTP_HOST/PORT/USER/PASSWORD (nodemailer), for every deployment;
// - outbox: the development driver, the default under `npm start`: each message is logged and written as an
//   .eml file to MAIL_OUTBOX_DIR, so a newcomer can follow a reset link without a mail server.
// Messages are queued in identity's database first (mail_queue) and handed to the sender by the delivery
// loop, so a relay that is away delays a message and never loses it.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { createTransport, Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  readonly driver: 'smtp' | 'outbox';
  /** Hands one message over; rejects when the relay refuses it or does not answer. */
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export const MAIL_SENDER = Symbol('identity.mail-sender');

export interface MailConfig {
  MAIL_DRIVER: 'smtp' | 'outbox';
  MAIL_FROM: string;
  MAIL_OUTBOX_DIR: string;
  SMTP_HOST: string;
  SMTP_PORT: number;
  /** true: TLS from the first byte (port 465); false: STARTTLS when the relay offers it. */
  SMTP_SECURE: boolean;
  SMTP_USER: string;
  SMTP_PASSWORD: string;
  SMTP_TIMEOUT_MS: number;
}

export async function openMailSender(config: MailConfig, logger: Logger): Promise<MailSender> {
  if (config.MAIL_DRIVER !== 'smtp') return new OutboxFolderMailSender(config, logger);
  // nodemailer (about 40 modules, 650 KB of source kept in the heap) is loaded for the smtp driver only:
  // `npm start` writes to the outbox (ADR 0046).
  const nodemailer = await import('nodemailer');
  return new SmtpMailSender(config, nodemailer.createTransport);
}

/** A relay over SMTP. Nothing is sent at start-up: a relay that is away only delays the queue. */
export class SmtpMailSender implements MailSender {
  readonly driver = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    private readonly config: MailConfig,
    transportOf: typeof createTransport,
  ) {
    this.transport = transportOf({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } } : {}),
      connectionTimeout: config.SMTP_TIMEOUT_MS,
      greetingTimeout: config.SMTP_TIMEOUT_MS,
      socketTimeout: config.SMTP_TIMEOUT_MS,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** Development: the message in the log and as a file in a folder, nothing sent. */
export class OutboxFolderMailSender implements MailSender {
  readonly driver = 'outbox' as const;
  readonly dir: string;

  constructor(
    private readonly config: MailConfig,
    private readonly logger: Logger,
  ) {
    this.dir = resolve(config.MAIL_OUTBOX_DIR);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const now = new Date();
    const file = join(this.dir, `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
    const message = [
      `From: ${this.config.MAIL_FROM}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Date: ${now.toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      mail.text,
      '',
    ].join('\r\n');
    await writeFile(file, message, { mode: 0o600 });
    this.logger.info(
      { to: mail.to, subject: mail.subject, file, text: mail.text },
      'mail written to the development outbox (MAIL_DRIVER=outbox)',
    );
  }

  async close(): Promise<void> {}
}
