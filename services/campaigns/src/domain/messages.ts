// What the campaigns service answers in words, besides the field rules' own messages (@clipit/field-rules).
export const MESSAGES = {
  campaignNotFound: 'Campaign not found',
  invalidCampaignId: 'Invalid campaign id',
  invalidStreamerId: 'Invalid streamer id',
  unknownCampaignStatus: (status: string) => `Unknown campaign status: ${status}`,
  unknownDecision: (decision: string) => `Unknown campaign decision: ${decision}`,
  notPending: 'Only a pending campaign can be reviewed',
  oneRunning: 'This streamer already has a running campaign',
  reasonTooLong: 'Rejection reason must be at most 500 characters',
  invalidClipperId: 'Invalid clipper id',
  invalidClientId: 'Invalid client id',
  hireNotFound: 'Hire request not found',
  unknownHireStatus: (status: string) => `Unknown hire status: ${status}`,
  unknownHireAction: (action: string) => `Unknown hire action: ${action}`,
  notYourHire: 'You can only answer your own hire requests',
  alreadyAnswered: 'This hire request has already been answered',
  onlyAcceptedCompletes: 'Only an accepted hire request can be completed',
  notesTooLong: 'Notes must be at most 1000 characters',
} as const;

export const REJECTION_REASON_MAX = 500;
export const CLIPPER_NOTES_MAX = 1000;

/** Dollars as the contract carries them: text with two decimals ("500.00"). */
export function dollars(amount: number | string): string {
  return Number(amount).toFixed(2);
}
