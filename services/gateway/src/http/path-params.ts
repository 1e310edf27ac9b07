import { uuidOrUndefined } from '@clipit/service-kit';
import { BadRequestException } from '@nestjs/common';

/**
 * A path parameter that must be a UUID, in lowercase form; anything else is refused here with
 * `message` (400, text/plain) rather than carried to the owning service.
 */
export function uuidParam(value: string, message: string): string {
  const id = uuidOrUndefined(value);
  if (id === undefined) throw new BadRequestException(message);
  return id;
}
