// How the sessions list names a session (ADR 0032): a device from its user agent, and the network it signed
// in from, never the whole address (the list is shown to whoever holds a session of the account).

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = 'Unknown device';

/** "Chrome on macOS", "Firefox", "curl/8.5.0"…: what a person recognises their device by. */
export function deviceOf(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return UNKNOWN_DEVICE;
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system)!;
  // Not a browser (a script, an app): its own first product token, kept short.
  return ua.split(/\s/)[0]!.slice(0, 40);
}

/** The network an address is in: its /24 for IPv4 ("203.0.113.0/24"), its /48 for IPv6; undefined when it is not an address. */
export function networkOf(ip: string | null | undefined): string | undefined {
  const address = (ip ?? '').trim().replace(/^::ffff:(?=\d+\.)/i, '');
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return `${parts[0]}.${parts[1]}.${parts[2]}.0/24`;
  }
  if (!/^[0-9a-f:]+$/i.test(address) || !address.includes(':')) return undefined;
  const [head = '', tail] = address.split('::');
  if (address.split('::').length > 2) return undefined;
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const prefix = groups.slice(0, 3).map((g) => parseInt(g, 16).toString(16));
  return `${prefix.join(':')}::/48`;
}
