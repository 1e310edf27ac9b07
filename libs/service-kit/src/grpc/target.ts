// The forms a gRPC client's target (`<NAME>_GRPC_URL`) may take (ADR 0054). grpc-js reads more (unix
// sockets, an authority in the dns form, ports left out), but a value in none of these forms is far more
// likely a mistake than a wish, and grpc-js would only say so at the first call.

const HOST_PORT = /^([\w-]+(?:\.[\w-]+)*):(\d{1,5})$/;
const DNS = /^dns:\/\/\/([\w-]+(?:\.[\w-]+)*):(\d{1,5})$/;
const IPV4_ADDRESS = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/;

export const GRPC_TARGET_FORMS = 'host:port, dns:///<name>:<port> or ipv4:<ip>:<port>,<ip>:<port>';

const isPort = (text: string) => Number(text) >= 1 && Number(text) <= 65535;
// grpc-js reads `<scheme>:<rest>` as a scheme when it knows one of that name, so `dns:50051` is no host.
const SCHEMES = new Set(['dns', 'ipv4', 'ipv6', 'unix']);

/**
 * Whether `target` is one of the forms a client may be given:
 * - `host:port`: one address (npm start, tests);
 * - `dns:///<name>:<port>`: every address the name resolves to (a headless Service in k8s);
 * - `ipv4:<ip>:<port>,<ip>:<port>`: a list on one machine (the fault platform's replicas).
 */
export function isGrpcTarget(target: string): boolean {
  const hostPort = HOST_PORT.exec(target);
  if (hostPort) return !SCHEMES.has(hostPort[1]!.toLowerCase()) && isPort(hostPort[2]!);
  const dns = DNS.exec(target);
  if (dns) return isPort(dns[2]!);
  if (!target.startsWith('ipv4:')) return false;
  return target
    .slice('ipv4:'.length)
    .split(',')
    .every((address) => {
      const m = IPV4_ADDRESS.exec(address);
      return m !== null && m.slice(1, 5).every((octet) => Number(octet) <= 255) && isPort(m[5]!);
    });
}
