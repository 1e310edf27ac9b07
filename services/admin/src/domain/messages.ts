/** Every sentence the admin service answers with (the gateway passes them on as text). */
export const messages = {
  passwordRequired: 'Password is required',
  incorrectPassword: 'Incorrect password',
  tokenMissing: 'Admin authorization required',
  tokenInvalid: 'Invalid admin token',
  tokenExpired: 'Your admin session has expired. Enter the password again.',
  unknownAction: (action: string) => `Unknown moderation action: ${action}`,
  unknownDecision: (decision: string) => `Unknown campaign decision: ${decision}`,
  unknownCampaignStatus: (status: string) => `Unknown campaign status: ${status}`,
  reasonTooLong: 'Rejection reason must be at most 500 characters',
  unknownHoldDecision: (decision: string) => `Unknown hold decision: ${decision}`,
} as const;
