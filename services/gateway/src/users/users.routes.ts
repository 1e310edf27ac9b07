import {
  busyText,
  PLACEHOLDER_MESSAGES,
  PROFILE_IMAGE_MESSAGES as IMG,
  WALLET_CHANGE_MESSAGES,
  WALLET_MESSAGES,
} from '@clipit/field-rules';
import { currentUserSchema } from '../auth/current-user.js';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, TOO_MANY_ATTEMPTS } from '../http/messages.js';
import {
  activeSessionsSchema,
  endedSessionsSchema,
  imageStoredSchema,
  imageUploadUrlBody,
  imageUploadUrlSchema,
  setBannerBody,
  setProfilePictureBody,
  updateDisplayNameBody,
  updateProfileBody,
} from './users.schemas.js';

const currentUser = {
  tag: 'users',
  session: true,
  response: currentUserSchema,
  errors: [
    { status: 401, description: `'${NOT_SIGNED_IN}'` },
    { status: 503, description: 'Service temporarily unavailable' },
  ],
} as const;

const signedInWrite = [
  { status: 401, description: `'${NOT_SIGNED_IN}'` },
  { status: 403, description: CROSS_SITE_REFUSED },
  { status: 503, description: 'Service temporarily unavailable' },
] as const;

export const usersRoutes = {
  me: { method: 'GET', path: '/api/user/me', summary: 'The signed-in user', ...currentUser },
  authUser: { method: 'GET', path: '/api/auth/user', summary: 'The signed-in user (same answer as /api/user/me)', ...currentUser },
  updateProfile: {
    method: 'PATCH',
    path: '/api/user/profile',
    limit: 'wallet-change',
    tag: 'users',
    summary:
      "Set the signed-in user's Solana wallet address. The first wallet needs nothing more; replacing one needs currentPassword, or for an account made with X a sign-in with X in the last 10 minutes. A replacement is mailed to the owner, and payouts to the new wallet wait 72 hours",
    session: true,
    body: updateProfileBody,
    response: currentUserSchema,
    errors: [
      { status: 400, description: `'${WALLET_MESSAGES.required}', '${WALLET_MESSAGES.invalid}'` },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      {
        status: 403,
        description: `'${WALLET_CHANGE_MESSAGES.passwordRequired}', '${WALLET_CHANGE_MESSAGES.passwordIncorrect}', '${WALLET_CHANGE_MESSAGES.xSignInRequired}'; ${CROSS_SITE_REFUSED}`,
      },
      { status: 413, description: 'Request body is too large' },
      { status: 415, description: 'Unsupported content type' },
      {
        status: 429,
        description: `${TOO_MANY_ATTEMPTS} (with Retry-After, in seconds): wallet changes are limited per account and per address`,
      },
      {
        status: 503,
        description: `'${busyText('wallet-password', 'N')}' (with Retry-After: N, in seconds; identity could not check the password in time), or 'Service temporarily unavailable'`,
      },
    ],
  },
  sessions: {
    method: 'GET',
    path: '/api/user/sessions',
    tag: 'users',
    summary: "The signed-in account's active sessions (device, network, last seen), this browser's first",
    session: true,
    response: activeSessionsSchema,
    errors: currentUser.errors,
  },
  endOtherSessions: {
    method: 'POST',
    path: '/api/user/sessions/sign-out-others',
    tag: 'users',
    summary: "Sign out everywhere else: every session of the account but this browser's ends, on every gateway at once",
    session: true,
    response: endedSessionsSchema,
    errors: signedInWrite,
  },
  profilePictureUploadUrl: {
    method: 'POST',
    path: '/api/user/profile-picture/upload-url',
    tag: 'users',
    summary:
      'An upload URL for a new profile picture (PNG, JPEG, GIF or WebP, at most 5 MB): PUT the raw file there with its content type, then PUT /api/user/profile-picture with the imageUrl',
    session: true,
    body: imageUploadUrlBody,
    response: imageUploadUrlSchema,
    errors: [
      { status: 400, description: `'${IMG.notImage('profile')}', '${IMG.unsupported('profile')}', '${IMG.sizeInvalid}'` },
      { status: 413, description: `'${IMG.tooLarge('profile')}'` },
      ...signedInWrite,
    ],
  },
  bannerUploadUrl: {
    method: 'POST',
    path: '/api/user/banner/upload-url',
    tag: 'users',
    summary:
      'An upload URL for a new banner (PNG, JPEG, GIF or WebP, at most 10 MB, 1500x500 px recommended): PUT the raw file there with its content type, then PUT /api/user/banner with the imageUrl',
    session: true,
    body: imageUploadUrlBody,
    response: imageUploadUrlSchema,
    errors: [
      { status: 400, description: `'${IMG.notImage('banner')}', '${IMG.unsupported('banner')}', '${IMG.sizeInvalid}'` },
      { status: 413, description: `'${IMG.tooLarge('banner')}'` },
      ...signedInWrite,
    ],
  },
  putImageUpload: {
    method: 'PUT',
    path: '/api/user/image-uploads/:uploadId',
    tag: 'users',
    summary:
      'The image upload URL on filesystem storage (on S3 the upload URL is a presigned PUT to the bucket): the raw image with its content type, at most the limit of its kind',
    params: { uploadId: 'the uploadId from an upload-url answer (the URL also carries its token)' },
    // Its token authenticates it, not the cookie, like the video upload URL.
    cookieless: true,
    response: imageStoredSchema,
    successDescription: 'Stored; set it as the picture or banner next',
    errors: [
      {
        status: 400,
        description: `'${IMG.notImage('profile')}', '${IMG.notImage('banner')}', '${IMG.unsupported('profile')}', …: the content type or the first bytes are not a PNG, JPEG, GIF or WebP image`,
      },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 404, description: `'${IMG.uploadNotFound}'` },
      { status: 413, description: `'${IMG.tooLarge('profile')}', '${IMG.tooLarge('banner')}' (nothing is kept)` },
      { status: 415, description: 'A body that is not an image/* content type' },
      { status: 503, description: 'Service temporarily unavailable' },
    ],
  },
  setProfilePicture: {
    method: 'PUT',
    path: '/api/user/profile-picture',
    tag: 'users',
    summary: "Make an uploaded image the signed-in user's profile picture (the imageUrl, or the uploadURL, of their own finished upload)",
    session: true,
    body: setProfilePictureBody,
    response: currentUserSchema,
    errors: [
      {
        status: 400,
        description: `'${IMG.imageUrlRequired}', '${IMG.notYourUpload}', '${IMG.notUploaded}', '${IMG.notImage('profile')}', '${IMG.wrongKind('profile')}'`,
      },
      { status: 403, description: `'${IMG.notYourUpload}' (another account's upload)` },
      { status: 404, description: `'${IMG.uploadNotFound}'` },
      { status: 409, description: `'${IMG.alreadyUsed}'` },
      { status: 413, description: `'${IMG.tooLarge('profile')}' (the stored file; it is removed)` },
      ...signedInWrite,
    ],
  },
  setBanner: {
    method: 'PUT',
    path: '/api/user/banner',
    tag: 'users',
    summary: "Make an uploaded image the signed-in user's banner (the imageUrl, or the uploadURL, of their own finished upload)",
    session: true,
    body: setBannerBody,
    response: currentUserSchema,
    errors: [
      {
        status: 400,
        description: `'${IMG.noBannerSelected}', '${IMG.notYourUpload}', '${IMG.notUploaded}', '${IMG.notImage('banner')}', '${IMG.wrongKind('banner')}'`,
      },
      { status: 403, description: `'${IMG.notYourUpload}' (another account's upload)` },
      { status: 404, description: `'${IMG.uploadNotFound}'` },
      { status: 409, description: `'${IMG.alreadyUsed}'` },
      { status: 413, description: `'${IMG.tooLarge('banner')}' (the stored file; it is removed)` },
      ...signedInWrite,
    ],
  },
  updateDisplayName: {
    method: 'POST',
    path: '/api/user/update-profile',
    tag: 'users',
    summary: "Set the signed-in user's display name",
    session: true,
    body: updateDisplayNameBody,
    response: currentUserSchema,
    errors: [
      { status: 400, description: `'${PLACEHOLDER_MESSAGES.displayNameRequired}', '${PLACEHOLDER_MESSAGES.displayNameTooLong}'` },
      ...signedInWrite,
    ],
  },
} satisfies Record<string, EndpointDef>;
