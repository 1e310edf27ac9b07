// A real SMTP server in the test's process (the smtp-server package): services under test send mail to it
// over SMTP as they would to a relay, and a test reads what arrived, parsed (mailparser), and follows its links.
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait.js';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-case. */
  to: string[];
  /** The envelope's sender (MAIL FROM). */
  from: string;
  /** The From header as written. */
  fromHeader: string;
  subject: string;
  text: string;
  /** Every http(s) link in the text, in order. */
  links: string[];
}

export interface MailServer {
  host: string;
  port: number;
  /** The account a client must log in with (plain auth over the unencrypted test connection). */
  user: string;
  password: string;
  /** Everything received so far, oldest first. */
  readonly received: readonly ReceivedMail[];
  /** The messages to this address so far. */
  to(address: string): ReceivedMail[];
  /** Identity's variables for sending through this server (MAIL_DRIVER=smtp, its host, port and login). */
  readonly smtpEnv: { MAIL_DRIVER: 'smtp'; SMTP_HOST: string; SMTP_PORT: string; SMTP_USER: string; SMTP_PASSWORD: string };
  /** Waits for the `n`-th message (1-based, default the first) to this address. */
  waitFor(address: string, options?: { n?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface MailServerOptions {
  /** When set, messages are refused with this SMTP reply while it returns true (a relay that is away). */
  refuse?: () => boolean;
}

/** Starts the server on 127.0.0.1 with a free port; it requires login, as a production relay does. */
export async function startMailServer(options: MailServerOptions = {}): Promise<MailServer> {
  const user = 'clipit-test';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      if (options.refuse?.()) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          const text = mail.text ?? '';
          const fromHeader = mail.from?.text ?? '';
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            fromHeader,
            subject: mail.subject ?? '',
            text,
            links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    received,
    smtpEnv: { MAIL_DRIVER: 'smtp', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_USER: user, SMTP_PASSWORD: password },
    to,
    waitFor: (address, { n = 1, timeoutMs = 10_000 } = {}) => waitFor(() => to(address)[n - 1], timeoutMs, `mail #${n} to ${address}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
