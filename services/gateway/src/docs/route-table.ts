import type { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner } from '@nestjs/core';
import { endpointOf } from '../http/endpoint.js';
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

/** The @Endpoint declarations of these controllers; operation ids are `Controller.method`. */
export function endpointsOf(controllers: readonly Type[], scanner = new MetadataScanner()): DiscoveredEndpoint[] {
  const found: DiscoveredEndpoint[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const def = endpointOf(prototype[name] as object);
      if (def) found.push({ def, operationId: `${controller.name}.${name}` });
    }
  }
  return found;
}
