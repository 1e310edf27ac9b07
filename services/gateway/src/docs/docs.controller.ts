import { Controller } from '@nestjs/common';
import { Endpoint } from '../http/endpoint.js';
import { docsRoutes } from './docs.routes.js';
import { DocsService } from './docs.service.js';

@Controller()
export class DocsController {
  constructor(private readonly docs: DocsService) {}

  @Endpoint(docsRoutes.openApi)
  openApi(): Record<string, unknown> {
    return this.docs.openApi();
  }

  @Endpoint(docsRoutes.openApiV1)
  openApiV1(): Record<string, unknown> {
    return this.docs.openApi('v1');
  }
}
