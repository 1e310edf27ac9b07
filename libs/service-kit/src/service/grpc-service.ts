import { applyDecorators, Catch, Controller, Inject, Injectable, UseFilters, UseInterceptors } from '@nestjs/common';
import type { Logger } from 'pino';
import { GrpcContextInterceptor, GrpcErrorFilter } from '../grpc/server.js';
import { LOGGER } from './tokens.js';

/** The kit's gRPC error mapping, logging what is not a domain error (those become INTERNAL). */
@Catch()
@Injectable()
export class ServiceGrpcErrorFilter extends GrpcErrorFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super((err) => logger.error({ err }, 'unexpected error in a gRPC call'));
  }
}

/**
 * Marks a service's gRPC controller: correlation ids and call metrics on every method, domain errors
 * answered as their status code. Put it above the generated `…ControllerMethods()` decorator.
 */
export function GrpcService(): ClassDecorator {
  return applyDecorators(Controller(), UseInterceptors(GrpcContextInterceptor), UseFilters(ServiceGrpcErrorFilter));
}
