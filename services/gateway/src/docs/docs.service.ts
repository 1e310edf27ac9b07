import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { API_VERSION, buildOpenApiDocument, type ApiDocument, type DiscoveredEndpoint } from './openapi.js';
import { endpointsOf } from './route-table.js';

/** Finds every @Endpoint of the running application's controllers and documents it. */
@Injectable()
export class DocsService {
  private readonly documents: Partial<Record<ApiDocument, Record<string, unknown>>> = {};

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  endpoints(): DiscoveredEndpoint[] {
    const controllers = this.discovery.getControllers().flatMap((wrapper) => (wrapper.metatype ? [wrapper.metatype as Type] : []));
    return endpointsOf(controllers, this.scanner);
  }

  openApi(document: ApiDocument = 'site'): Record<string, unknown> {
    return (this.documents[document] ??= buildOpenApiDocument(this.endpoints(), { version: API_VERSION, document }));
  }
}
