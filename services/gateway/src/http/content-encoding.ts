// The content codings the gateway sends: a built file's precompressed sibling (web/) or a JSON answer
// compressed on the way out (json-compression.ts), in the order they are preferred.

/** The encodings a sibling file can hold, in the order they are preferred (brotli is smaller). */
export const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * The preferred encoding among `available` that Accept-Encoding allows (RFC 9110 §12.5.3: a coding
 * listed with q=0 is refused, `*` covers the ones not listed), or undefined for the file as it is.
 */
export function chooseEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!acceptEncoding || available.length === 0) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding === '') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: Encoding | undefined;
  for (const encoding of available) {
    const weight = weightOf(encoding.name);
    if (weight > 0 && (best === undefined || weight > weightOf(best.name))) best = encoding;
  }
  return best;
}
