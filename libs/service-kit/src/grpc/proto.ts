// A contract's proto, loaded once per process: the settings servers and clients share, and the cache of
// package definitions both start from.
import { protoRoot } from '@clipit/contracts';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { isAbsolute, join } from 'node:path';

export const GRPC_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * proto-loader settings shared by servers and clients, so both see the same shapes.
 * `oneofs` stays off: with it, every proto3 `optional` field (a synthetic oneof) adds a virtual
 * `_field: 'field'` property to decoded messages, which would leak into JSON answers. Presence of
 * an optional field is still visible: unset optional fields are absent (defaults skip them).
 */
export const protoLoaderOptions = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: false,
  includeDirs: [protoRoot],
};

const definitions = new Map<string, PackageDefinition>();

/**
 * A contract's package definition (proto-loader with {@link protoLoaderOptions}), loaded once per process and
 * shared by every server and client of it: a load parses the file and its imports again (tens of ms each; a
 * gateway has seven clients, a test process starts whole platforms). `protoFile` is relative to the
 * contracts' proto root, as `protoFile()` of @clipit/contracts names it, or absolute.
 */
export function protoDefinition(protoFile: string): PackageDefinition {
  const path = isAbsolute(protoFile) ? protoFile : join(protoRoot, protoFile);
  let definition = definitions.get(path);
  if (!definition) {
    definition = loadSync(path, protoLoaderOptions);
    definitions.set(path, definition);
  }
  return definition;
}
