// The words rewards answers with when it refuses: the gateway passes them to the person as they are.

export const messages = {
  invalidUserId: 'Invalid user id',
  invalidCursor: 'Invalid cursor',
} as const;
