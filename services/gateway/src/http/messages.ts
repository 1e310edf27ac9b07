// The texts a person reads when the gateway itself refuses a request (clients show "status: text").
// Validation texts live beside their schemas (the field rules' in @clipit/field-rules); texts from the
// owning services pass through unchanged.

export const NOT_SIGNED_IN = 'Not signed in';
/** An admin route without `Authorization: Bearer <token>` (the admin service words the rest: invalid, expired). */
export const ADMIN_TOKEN_MISSING = 'Admin authorization required';
export const CROSS_SITE_REFUSED = 'Cross-site request refused';
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a few minutes and try again.';
export const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again.';
export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable';
export const SERVICE_TIMEOUT = 'The service took too long to answer. Please try again.';
export const NOT_IMPLEMENTED = 'This is not available yet';
export const BODY_TOO_LARGE = 'Request body is too large';
export const BODY_NOT_JSON = 'Request body is not valid JSON';
export const BODY_NOT_OBJECT = 'Request body must be a JSON object';
export const BODY_BAD_LENGTH = 'Request body does not match its Content-Length';
export const CONTROL_CHARACTERS = 'Text must not contain control characters (such as NUL); only tabs and line breaks are allowed';
export const PATH_TOO_LONG = 'The address is too long';
export const PATH_NOT_VALID = 'The address is not valid';
export const HEADERS_TOO_LARGE = 'Request headers are too large';
export const REQUEST_TIMEOUT = 'The request took too long to arrive';
export const BAD_REQUEST = 'The request could not be read';
export const UNSUPPORTED_CONTENT_TYPE =
  'Unsupported content type: send JSON (application/json), or multipart/form-data where a file is uploaded';
export const PICTURE_NOT_IMAGE = 'Profile picture must be an image file';
export const PICTURE_UNSUPPORTED_IMAGE = 'Profile picture must be a PNG, JPEG, GIF or WebP image';
export const NOT_FOUND = 'Not found';
export const RANGE_NOT_SATISFIABLE = 'Requested range not satisfiable';
export const WEB_APP_NOT_BUILT = 'The web app is not built: run npm run build:web';

/** "Profile picture must be 5 MB or smaller", from the configured limit. */
export function pictureTooLarge(maxBytes: number): string {
  return `Profile picture must be ${formatMegabytes(maxBytes)} or smaller`;
}

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

export function noSuchRoute(method: string, path: string): string {
  return `No such route: ${method} ${path}`;
}
