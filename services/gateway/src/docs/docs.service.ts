import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { EndpointMeta } from '../http/endpoint.js';
import { buildOpenApiDocument, type DiscoveredEndpoint } from './openapi.js';

/** Finds every @Endpoint of the running application's controllers and documents it. */
@Injectable()
export class DocsService {
  private document?: Record<string, unknown>;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  endpoints(): DiscoveredEndpoint[] {
    const found: DiscoveredEndpoint[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const prototype = (wrapper.metatype as { prototype?: object } | undefined)?.prototype;
      if (!prototype) continue;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const def = this.discovery.getMetadataByDecorator(EndpointMeta, wrapper, name);
        if (def) found.push({ def, operationId: `${wrapper.name}.${name}` });
      }
    }
    return found;
  }

  openApi(): Record<string, unknown> {
    this.document ??= buildOpenApiDocument(this.endpoints(), { version: '1.0.0' });
    return this.document;
  }
}
