// Kept apart from the S3 driver: configuration checks S3_ENDPOINT with it in every service that has storage,
// and importing the driver would load the `minio` client (ADR 0046: only STORAGE_DRIVER=s3 loads it).

/** The client settings named by an S3 endpoint URL; throws a TypeError saying what is wrong with it. */
export function parseS3Endpoint(url: string): { endPoint: string; port: number; useSSL: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`S3 endpoint ${JSON.stringify(url)} is not a URL; expected e.g. http://minio:9000`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`S3 endpoint ${JSON.stringify(url)} must start with http:// or https://`);
  }
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    throw new TypeError(`S3 endpoint ${JSON.stringify(url)} must be scheme, host and port only (no path, query or credentials)`);
  }
  const useSSL = parsed.protocol === 'https:';
  return {
    endPoint: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? (useSSL ? 443 : 80) : Number(parsed.port),
    useSSL,
  };
}
