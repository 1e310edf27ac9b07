// The words rewards answers with when it refuses: the gateway passes them to the person as they are.

export const messages = {
  invalidUserId: 'Invalid user id',
  invalidCursor: 'Invalid cursor',
  userNotFound: 'User not found',
  invalidEarningId: 'Invalid earning id',
  earningNotFound: 'Earning not found',
  notHeld: 'This earning is not held',
  invalidActor: 'Who decides is required',
  identityUnavailable: 'This user cannot be looked up right now; please try again in a minute',
} as const;
