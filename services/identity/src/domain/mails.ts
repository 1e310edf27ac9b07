import type { MailKind } from '../entities/mail.entity.js';

/** A message identity sends, as it is queued (mail_queue). */
export interface QueuedMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** The message is of no use past this (its link expired): dropped if it could not be sent by then. */
  expiresAt?: Date;
}

/** The message with a password reset link. */
export function passwordResetMail(to: string, handle: string, link: string, expiresAt: Date): QueuedMail {
  return {
    kind: 'password-reset',
    to,
    subject: 'Reset your CLIP IT password',
    text: [
      `Someone asked to set a new password for the CLIP IT account @${handle}.`,
      '',
      'If it was you, open this link within 30 minutes and confirm. The new password is the one you typed when you asked:',
      link,
      '',
      'If it was not you, ignore this message: your password stays as it is, and the link stops working by itself.',
    ].join('\n'),
    expiresAt,
  };
}

/** The message with an e-mail verification link. */
export function emailVerificationMail(to: string, handle: string, link: string, expiresAt: Date): QueuedMail {
  return {
    kind: 'email-verification',
    to,
    subject: 'Confirm your e-mail address for CLIP IT',
    text: [
      `Confirm that this address belongs to the CLIP IT account @${handle}: open this link within 48 hours.`,
      link,
      '',
      'Password reset links are only ever sent to a confirmed address.',
      'If you did not sign up for CLIP IT, ignore this message.',
    ].join('\n'),
    expiresAt,
  };
}

/** A wallet as a mail shows it: enough to recognise, not the whole address. */
const shortWallet = (wallet: string): string => (wallet.length > 12 ? `${wallet.slice(0, 4)}…${wallet.slice(-4)}` : wallet);

/** The notice to the owner that their payout wallet was replaced (ADR 0032). */
export function walletChangedMail(
  to: string,
  handle: string,
  change: { from: string; to: string; at: Date; payoutsFrom: Date; recoverUrl: string },
): QueuedMail {
  return {
    kind: 'wallet-changed',
    to,
    subject: 'Your CLIP IT payout wallet was changed',
    text: [
      `The wallet that receives the payouts of the CLIP IT account @${handle} was changed on ${change.at.toUTCString()}:`,
      `from ${shortWallet(change.from)} to ${shortWallet(change.to)}.`,
      '',
      `To protect your earnings, nothing is paid to the new wallet before ${change.payoutsFrom.toUTCString()}.`,
      '',
      'If this was not you, reset your password now (choose "Forgot password?" on the sign-in page) and then set your own wallet again:',
      change.recoverUrl,
    ].join('\n'),
  };
}
