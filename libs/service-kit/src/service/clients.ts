import { protoFile, type GrpcContract } from '@clipit/contracts';
import { createGrpcClient, type GrpcClient } from '../grpc/client.js';

/** The typed client of a contract, e.g. `ClientOf<typeof identityContract>`. */
export type ClientOf<C extends GrpcContract> = C extends GrpcContract<infer T> ? GrpcClient<T> : never;

/**
 * Another service this one calls over gRPC: the kit creates the client at start-up, provides it under
 * `token`, closes it on shutdown and adds it to readiness.
 */
export interface GrpcClientDefinition<C> {
  contract: GrpcContract;
  token: symbol;
  url(config: C): string;
  /** How long a call may take (the client's 5 s unless given): a number, or read from the config. */
  deadlineMs?: number | ((config: C) => number);
  /**
   * 'required' (the default): readiness fails while the service cannot be reached, because nearly every
   * call needs it. 'reported': it shows in readiness without failing it, because only some calls need it.
   */
  readiness?: 'required' | 'reported';
  /** What readiness asks of the service; by default only that its channel connects. */
  probe?: (client: never) => Promise<unknown>;
}

/** Declares a client of `contract`, its probe typed with the contract's client. */
export function grpcClient<T extends object, C>(
  contract: GrpcContract<T>,
  options: Omit<GrpcClientDefinition<C>, 'contract' | 'probe'> & { probe?: (client: GrpcClient<T>) => Promise<unknown> },
): GrpcClientDefinition<C> {
  return { ...options, contract } as GrpcClientDefinition<C>;
}

/** A typed client of a service's contract at `url` (a target as env.grpcTarget takes it). */
export function contractClient<T extends object>(contract: GrpcContract<T>, url: string, deadlineMs?: number): GrpcClient<T> {
  return createGrpcClient<T>({
    url,
    packageName: contract.packageName,
    serviceName: contract.serviceName,
    protoFile: protoFile(contract.proto),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  });
}

export function openGrpcClient<C>(definition: GrpcClientDefinition<C>, config: C): GrpcClient<object> {
  const { deadlineMs } = definition;
  return contractClient(definition.contract, definition.url(config), typeof deadlineMs === 'function' ? deadlineMs(config) : deadlineMs);
}
