import type { identityV1 } from '@clipit/contracts';
import { toCurrentUser } from '../auth/current-user.js';
import { serialize } from '../feed/read-cache.js';
import type { EncodableJson } from '../http/json-compression.js';

/** The JSON of each cached user (the session cache's object), made once: GET /api/user/me at the front and in the route. */
const answers = new WeakMap<identityV1.User, EncodableJson>();

/** The bytes and ETag of `toCurrentUser(user)`, kept as long as the user object lives (the session cache's entry). */
export function currentUserAnswer(user: identityV1.User): EncodableJson {
  let answer = answers.get(user);
  if (!answer) answers.set(user, (answer = serialize(toCurrentUser(user))));
  return answer;
}
