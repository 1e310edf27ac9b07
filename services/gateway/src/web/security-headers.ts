// The security headers of every HTML answer of the site (docs/adr/0036), free of I/O so they are
// tested alone. The pages run only scripts and styles from files this site serves (the shell's and the
// remotes', which Module Federation loads by <script> from the same origin), talk only to this origin,
// and show images from it (uploads, under /media) and from X (profile pictures and post thumbnails).

/** Where the pages' pictures come from besides this site: X's image hosts (profile pictures, oEmbed thumbnails). */
export const X_IMAGE_ORIGINS = ['https://pbs.twimg.com', 'https://abs.twimg.com'] as const;

/**
 * The origins of the remotes' manifests that are not on this site (FRONTEND_REMOTES pointing a remote at
 * a CDN): their entry, chunks and styles load from there, and the shell fetches their manifests.
 */
export function remoteOrigins(manifestUrls: Iterable<string>): string[] {
  const origins = new Set<string>();
  for (const url of manifestUrls) {
    if (!/^https?:\/\//i.test(url)) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not a URL: remotes-config refuses these at start-up; nothing to allow.
    }
  }
  return [...origins].sort();
}

/**
 * The policy: nothing inline (no inline script or style element, no eval), no plug-ins, no framing by
 * anyone, no <base> elsewhere, forms posting only here; `remotes` are the origins of remotes served
 * elsewhere (see remoteOrigins).
 */
export function contentSecurityPolicy(remotes: readonly string[] = []): string {
  const self = ["'self'", ...remotes];
  const directives: Array<[string, readonly string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', self],
    ['style-src', self],
    // data: for the small pictures the build inlines into the scripts and styles; blob: for a chosen file's
    // preview; a remote's origin for the pictures its build ships (the sample clips' posters).
    ['img-src', [...self, 'data:', 'blob:', ...X_IMAGE_ORIGINS]],
    // blob: for a chosen video, read in the browser before it is uploaded (its length and size); a remote's
    // origin for the videos its build ships (the sample clips of /client-services).
    ['media-src', [...self, 'blob:']],
    ['connect-src', self],
    ['font-src', ["'self'"]],
    ['frame-src', ["'none'"]],
    ['worker-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * Browser features: those the pages use stay allowed to this site alone (fullscreen and autoplay for
 * the feed's videos, picture-in-picture from the video controls, writing the clipboard for a claim
 * code); everything else a page could ask for is denied to it and to anything it embeds.
 */
export const PERMISSIONS_POLICY = [
  'fullscreen=(self)',
  'autoplay=(self)',
  'picture-in-picture=(self)',
  'clipboard-write=(self)',
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'clipboard-read=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** The headers every HTML answer carries. */
export function htmlSecurityHeaders(remotes: readonly string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(remotes),
    'Permissions-Policy': PERMISSIONS_POLICY,
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  };
}
