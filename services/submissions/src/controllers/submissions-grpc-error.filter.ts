import { GrpcErrorFilter } from '@clipit/service-kit';
import { Catch, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../submissions.tokens.js';

/** The kit's gRPC error mapping, logging what is not a domain error (those become INTERNAL). */
@Catch()
@Injectable()
export class SubmissionsGrpcErrorFilter extends GrpcErrorFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super((err) => logger.error({ err }, 'unexpected error in a gRPC call'));
  }
}
