import { invalid, uuidOrUndefined } from '@clipit/service-kit';
import { messages } from './messages.js';

/** A user id from a request: a uuid in lowercase, or INVALID_ARGUMENT 'Invalid user id'. */
export function userIdOf(raw: string): string {
  const id = uuidOrUndefined(raw);
  if (!id) throw invalid(messages.invalidUserId);
  return id;
}

/** The value a field-rules check answered, or INVALID_ARGUMENT with its words. */
export function checked<T>(result: ({ error?: undefined } & T) | { error: string }): T {
  if (result.error !== undefined) throw invalid(result.error);
  return result as T;
}
