// The words developer answers with when it refuses, besides @clipit/field-rules' API_KEY_MESSAGES: the
// gateway passes them to the person as they are.

export const messages = {
  invalidUserId: 'Invalid user id',
} as const;
