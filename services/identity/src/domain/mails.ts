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
