import { describe, expect, it } from '@jest/globals';
import { Controller, forwardRef, Module, UseGuards } from '@nestjs/common';
import { SessionGuard } from '../auth/session.strategy.js';
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

  it('refuses a route whose declaration does not say the guard it is behind, either way', () => {
    @Controller()
    class Undeclared {
      @Endpoint({ method: 'GET', path: '/mine', tag: 't', summary: 'Mine' })
      @UseGuards(SessionGuard)
      mine(): void {}
    }
    @UseGuards(SessionGuard)
    @Controller()
    class Declared {
      @Endpoint({ method: 'GET', path: '/mine', tag: 't', summary: 'Mine', session: true })
      mine(): void {}
    }
    @Controller()
    class Unguarded {
      @Endpoint({ method: 'GET', path: '/mine', tag: 't', summary: 'Mine', session: true })
      mine(): void {}
    }
    expect(() => endpointsOf([Undeclared])).toThrow(
      'Undeclared.mine: is behind SessionGuard but its route declaration lacks session: true',
    );
    expect(endpointsOf([Declared]).map((e) => e.operationId)).toEqual(['Declared.mine']);
    expect(() => endpointsOf([Unguarded])).toThrow('Unguarded.mine: declares session: true but is not behind SessionGuard');
  });
});
