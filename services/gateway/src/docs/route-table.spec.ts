import { describe, expect, it } from '@jest/globals';
import { Controller, forwardRef, Module } from '@nestjs/common';
import { Endpoint } from '../http/endpoint.js';
import { controllersOf, endpointsOf } from './route-table.js';

@Controller()
class PingController {
  @Endpoint({ method: 'GET', path: '/ping', tag: 't', summary: 'Ping' })
  ping(): string {
    return 'pong';
  }

  helper(): void {}
}

@Controller()
class LateController {}

@Module({ controllers: [LateController] })
class LateModule {}

@Module({ imports: [forwardRef(() => LateModule)], controllers: [PingController] })
class FeatureModule {}

@Module({})
class RootModule {}

describe('the route table, read without starting an app', () => {
  const root = { module: RootModule, imports: [FeatureModule, FeatureModule, { module: LateModule, imports: [FeatureModule] }] };

  it('finds every controller of a module tree once, through dynamic modules and forward references', () => {
    expect(controllersOf(root)).toEqual([PingController, LateController]);
  });

  it('lists only the methods declared with @Endpoint, as Controller.method', () => {
    expect(endpointsOf(controllersOf(root)).map((e) => [e.operationId, e.def.path])).toEqual([['PingController.ping', '/ping']]);
  });
});
