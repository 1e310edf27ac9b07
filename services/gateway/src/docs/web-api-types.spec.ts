// The web apps' API types (@clipit/web-api, generated from this gateway's OpenAPI document) must be
// exactly the types of the schemas the routes declare: what zod → JSON Schema → openapi-typescript
// loses or bends on the way fails tsc here (these assertions are checked at compile time; Jest only
// runs the file). A schema change with stale generated types fails `npm run web-api-types -- --check`.
import { describe, expect, it } from '@jest/globals';
import type {
  ApiAnswer,
  ApiRequestBody,
  CurrentUser,
  LoginResponse,
  LogoutResponse,
  ResetPasswordResponse,
  SignupResponse,
  Streamer,
  Submission,
  Token,
  VideoUploadUrl,
} from '@clipit/web-api';
import type { z } from 'zod';
import type { loginBody, loginResponse, logoutResponse, resetPasswordResponse, signupResponse } from '../auth/auth.schemas.js';
import type { streamerSchema, tokenSchema } from '../catalog/catalog.schemas.js';
import type { createSubmissionBody, submissionSchema, videoUploadUrlSchema } from '../submissions/submissions.schemas.js';
import type { currentUserSchema } from '../auth/current-user.js';
import type { updateProfileBody } from '../users/users.schemas.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_Check extends true>(): true => true;

describe('the web apps’ API types', () => {
  it('are the answers the gateway declares, field for field', () => {
    expect([
      same<Equal<CurrentUser, z.output<typeof currentUserSchema>>>(),
      same<Equal<SignupResponse, z.output<typeof signupResponse>>>(),
      same<Equal<LoginResponse, z.output<typeof loginResponse>>>(),
      same<Equal<ResetPasswordResponse, z.output<typeof resetPasswordResponse>>>(),
      same<Equal<LogoutResponse, z.output<typeof logoutResponse>>>(),
      same<Equal<Token, z.output<typeof tokenSchema>>>(),
      same<Equal<Streamer, z.output<typeof streamerSchema>>>(),
      same<Equal<Submission, z.output<typeof submissionSchema>>>(),
      same<Equal<VideoUploadUrl, z.output<typeof videoUploadUrlSchema>>>(),
      same<Equal<ApiAnswer<'/api/submissions', 'get'>, z.output<typeof submissionSchema>[]>>(),
    ]).not.toContain(false);
  });

  it('are the request bodies the gateway validates', () => {
    expect([
      same<Equal<ApiRequestBody<'/api/auth/login', 'post'>, z.input<typeof loginBody>>>(),
      same<Equal<ApiRequestBody<'/api/user/profile', 'patch'>, z.input<typeof updateProfileBody>>>(),
      same<Equal<ApiRequestBody<'/api/submissions', 'post'>, z.input<typeof createSubmissionBody>>>(),
    ]).not.toContain(false);
  });
});
