import type { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { GUARDS_METADATA, MODULE_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner } from '@nestjs/core';
import { AdminBearerGuard } from '../admin/admin-bearer.guard.js';
import { SessionGuard } from '../auth/session.strategy.js';
import { endpointOf, type EndpointDef } from '../http/endpoint.js';
import type { DiscoveredEndpoint } from './openapi.js';

type ModuleImport = Type | DynamicModule | ForwardReference | Promise<DynamicModule>;

const isForwardRef = (m: object): m is ForwardReference => 'forwardRef' in m;
const isDynamic = (m: object): m is DynamicModule => 'module' in m;

/**
 * Every controller a module tree declares, read from the @Module metadata alone: nothing is
 * instantiated, so no connection opens. Lets the OpenAPI document be built without starting the gateway.
 */
export function controllersOf(root: ModuleImport): Type[] {
  const seen = new Set<unknown>();
  const controllers: Type[] = [];
  const visit = (entry: ModuleImport | undefined): void => {
    if (!entry) return;
    if (entry instanceof Promise) throw new Error('controllersOf: an asynchronous module import cannot be read without starting the app');
    const ref = isForwardRef(entry) ? (entry.forwardRef() as Type | DynamicModule) : entry;
    const dynamic = typeof ref === 'function' ? undefined : isDynamic(ref) ? ref : undefined;
    const cls = dynamic ? dynamic.module : typeof ref === 'function' ? ref : undefined;
    if (!cls || seen.has(dynamic ?? cls)) return;
    seen.add(dynamic ?? cls);
    const read = (key: string) => (Reflect.getMetadata(key, cls) as ModuleImport[] | undefined) ?? [];
    for (const c of [...read(MODULE_METADATA.CONTROLLERS), ...(dynamic?.controllers ?? [])] as Type[]) {
      if (!controllers.includes(c)) controllers.push(c);
    }
    for (const imported of [...read(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(imported);
  };
  visit(root);
  return controllers;
}

/** The guards a route's declaration names (its document's security), and the guard class behind each. */
const DECLARED_GUARDS: { flag: keyof Pick<EndpointDef, 'session' | 'bearer'>; guard: Type }[] = [
  { flag: 'session', guard: SessionGuard },
  { flag: 'bearer', guard: AdminBearerGuard },
];

/**
 * The document's security comes from the declaration, and the declaration must say what the route
 * really does: a route behind SessionGuard that does not declare `session` (or the reverse) stops here,
 * so the API reference cannot call a guarded route open.
 */
function checkGuards(controller: Type, handler: object, def: EndpointDef, operationId: string): void {
  const guards = [
    ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []),
    ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
  ];
  for (const { flag, guard } of DECLARED_GUARDS) {
    const guarded = guards.includes(guard);
    if (guarded !== Boolean(def[flag])) {
      throw new Error(
        `${operationId}: ${guarded ? `is behind ${guard.name} but its route declaration lacks ${flag}: true` : `declares ${flag}: true but is not behind ${guard.name}`}`,
      );
    }
  }
}

/** The @Endpoint declarations of these controllers; operation ids are `Controller.method`. */
export function endpointsOf(controllers: readonly Type[], scanner = new MetadataScanner()): DiscoveredEndpoint[] {
  const found: DiscoveredEndpoint[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as object;
      const def = endpointOf(handler);
      if (!def) continue;
      const operationId = `${controller.name}.${name}`;
      checkGuards(controller, handler, def, operationId);
      found.push({ def, operationId });
    }
  }
  return found;
}
