import * as grpc from '@grpc/grpc-js';
import type { Observable } from 'rxjs';
import { CORRELATION_HEADER, currentCorrelationId, currentReadYourWrites } from '../context/correlation.js';
import {
  addEvents,
  AFTER_METADATA,
  AFTER_MS_METADATA,
  formatEvents,
  parseEvents,
  STALE_METADATA,
  WRITTEN_METADATA,
  type ReadYourWrites,
} from '../context/read-your-writes.js';
import { GRPC_MAX_MESSAGE_BYTES, protoDefinition } from './proto.js';
import { DOMAIN_ERROR_TRAILER, RETRY_AFTER_TRAILER } from './errors.js';
import { grpcServiceConfig } from './service-config.js';

/** Turns a generated client interface (methods answering Observables) into one answering Promises. */
export type PromiseClient<T> = {
  [K in keyof T]: T[K] extends (request: infer Req, ...rest: never[]) => Observable<infer Res> ? (request: Req) => Promise<Res> : never;
};

/** A gRPC failure as the caller sees it: the status code and the owner's message. */
export class GrpcCallError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
    readonly method: string,
    /** The owning service answered this on purpose (a DomainError): the message is written for people. */
    readonly fromDomain = false,
    /** The seconds after which the call may be made again, when the owner said (a busy refusal). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'GrpcCallError';
  }
}

export interface GrpcClientOptions {
  /**
   * The target (`<NAME>_GRPC_URL`, env.grpcTarget): `host:port`; `dns:///<name>:<port>`, every address the
   * name resolves to (a headless Service in k8s); or `ipv4:<ip>:<port>,<ip>:<port>`, a list on one machine.
   */
  url: string;
  packageName: string;
  serviceName: string;
  protoFile: string;
  deadlineMs?: number;
}

/** A typed client with its channel's controls. */
export type GrpcClient<T> = PromiseClient<T> & {
  close(): void;
  /** Resolves once the channel is connected to the service (connecting if idle), or fails after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
};

type RawClient = grpc.Client &
  Record<
    string,
    (
      req: unknown,
      md: grpc.Metadata,
      opts: grpc.CallOptions,
      cb: (err: grpc.ServiceError | null, res: unknown) => void,
    ) => grpc.ClientUnaryCall
  >;

/**
 * A typed client for one service: every call carries the current correlation id and a deadline,
 * and fails with a GrpcCallError holding the owner's status code and message.
 *
 * Within a request that has a read-your-writes state (ADR 0043), every call also carries the events its
 * reads must show and the ms left to wait for them, and the events it committed, or its staleness, are
 * added to that state from the answer's headers.
 */
export function createGrpcClient<T extends object>(opts: GrpcClientOptions): GrpcClient<T> {
  const definition = protoDefinition(opts.protoFile);
  const pkg = grpc.loadPackageDefinition(definition) as Record<string, unknown>;
  const service = `${opts.packageName}.${opts.serviceName}`;
  const path = service.split('.');
  const Ctor = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], pkg) as
    (new (url: string, creds: grpc.ChannelCredentials, options: grpc.ChannelOptions) => RawClient) | undefined;
  if (typeof Ctor !== 'function') throw new Error(`service ${opts.packageName}.${opts.serviceName} not found in ${opts.protoFile}`);
  const raw = new Ctor(opts.url, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.keepalive_time_ms': 30_000,
    // grpc-js backs off up to 120 s between reconnects: after a minute's outage a caller found the service
    // again only ~30 s after it was back. Trying every 2 s at most costs little and recovers at once.
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 2000,
    // Every call goes to the next ready address of the target, and a read the replica could not answer is
    // sent again to another (ADR 0054); the config is ours alone, never one a DNS TXT record offers.
    'grpc.service_config': JSON.stringify(grpcServiceConfig(definition, service)),
    'grpc.service_config_disable_resolution': 1,
    // grpc-js resolves a name again only when a connection drops, and by default not within 30 s of the
    // last time. Servers close connections older than GRPC_MAX_CONNECTION_AGE_MS, so a client finds the
    // replicas added since within minutes.
    'grpc.dns_min_time_between_resolutions_ms': 5000,
  });
  const deadlineMs = opts.deadlineMs ?? 5000;
  const methods = Object.keys((Ctor as unknown as { service: Record<string, unknown> }).service);
  const client: Record<string, unknown> = {
    close: () => raw.close(),
    ready: (timeoutMs: number) =>
      new Promise<void>((resolve, reject) => raw.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve()))),
  };
  for (const method of methods) {
    const camel = method.charAt(0).toLowerCase() + method.slice(1);
    client[camel] = (request: unknown) =>
      new Promise((resolve, reject) => {
        const md = new grpc.Metadata();
        const correlationId = currentCorrelationId();
        if (correlationId) md.set(CORRELATION_HEADER, correlationId);
        const rw = currentReadYourWrites();
        if (rw && rw.after.length > 0) {
          md.set(AFTER_METADATA, formatEvents(rw.after));
          md.set(AFTER_MS_METADATA, String(Math.max(0, rw.waitUntil - Date.now())));
        }
        const call = raw[method]!.call(raw, request, md, { deadline: Date.now() + deadlineMs }, (err, res) => {
          if (err) {
            const fromDomain = err.metadata?.get(DOMAIN_ERROR_TRAILER)[0] === '1';
            reject(new GrpcCallError(err.code, err.details || err.message, method, fromDomain, retryAfterOf(err.metadata)));
          } else resolve(res);
        });
        // The response headers arrive before the message, so before the callback above.
        if (rw) call.on('metadata', (answered: grpc.Metadata) => takeReadYourWrites(rw, answered));
      });
  }
  return client as GrpcClient<T>;
}

/** The whole seconds of RETRY_AFTER_TRAILER, when it holds a sane number. */
function retryAfterOf(metadata: grpc.Metadata | undefined): number | undefined {
  const raw = metadata?.get(RETRY_AFTER_TRAILER)[0];
  const seconds = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : undefined;
  return seconds !== undefined && seconds >= 1 ? seconds : undefined;
}

/** What a service answered of read-your-writes: the events the call committed, and whether it read stale. */
function takeReadYourWrites(rw: ReadYourWrites, metadata: grpc.Metadata): void {
  const written = parseEvents(metadata.get(WRITTEN_METADATA)[0]);
  if (written.length > 0) addEvents(rw.written, written);
  if (metadata.get(STALE_METADATA)[0] === '1') rw.stale = true;
}
