// The guard every benchmark puts between a baseline and the ratio it prints: a ratio to a baseline that
// errored, answered non-2xx or ran far below what it can do is a number that means nothing (bench:feed
// once printed "194,756 % of bare" over a bare server that sent 20 req/s of misframed answers).
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A static answer from a bare node:http server does thousands a second, each well under a second. */
export const HTTP_STATIC_FLOORS = { minRps: 1000, maxP99Ms: 1000 };

/**
 * The floors for a static answer of `bytes`: 1,000 req/s, or for a large body at least 50 MB/s through the
 * loopback (a 192 KB creators tab ran 360 req/s, 70 MB/s, on a busy 2-core machine: bytes, not requests, are
 * what such a baseline is bound by).
 */
export function httpStaticFloorsFor(bytes) {
  return { ...HTTP_STATIC_FLOORS, minRps: Math.min(HTTP_STATIC_FLOORS.minRps, Math.max(50, Math.floor(50e6 / Math.max(bytes, 1)))) };
}

/** A refused baseline: the benchmark prints this message instead of its ratio and exits non-zero. */
export class BaselineBroken extends Error {
  constructor(reason, consequence = 'no ratio printed') {
    super(`baseline broken: ${reason}; ${consequence}`);
    this.name = 'BaselineBroken';
    this.reason = reason;
  }
}

/** Throws BaselineBroken for `label` when any of `problems` is set (falsy entries are no problem). */
export function refuseBaseline(label, problems, consequence) {
  const found = problems.filter(Boolean);
  if (found.length > 0) throw new BaselineBroken(`${label}: ${found.join(', ')}`, consequence);
}

/** What keeps an autocannon run from being compared with anything: an answer not 2xx, an error, a timeout. */
export function httpRunProblems(result) {
  const codes = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count} × ${code}`);
  return [
    result.non2xx > 0 && `${result.non2xx} answers not 2xx${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`,
    result.errors > 0 && `${result.errors} errors`,
    result.timeouts > 0 && `${result.timeouts} timeouts`,
    result.mismatches > 0 && `${result.mismatches} bodies not as expected`,
    !(result['2xx'] > 0) && 'no 2xx answer at all',
  ].filter(Boolean);
}

/**
 * Refuses an autocannon run as a baseline: any httpRunProblems, requests/s under `minRps`, a p99 over
 * `maxP99Ms` (HTTP_STATIC_FLOORS by default). Answers the result when it is fit to divide by.
 */
export function checkHttpBaseline(label, result, { minRps, maxP99Ms } = HTTP_STATIC_FLOORS) {
  const rps = result.requests?.average;
  const p99 = result.latency?.p99;
  refuseBaseline(label, [
    ...httpRunProblems(result),
    !(rps >= minRps) && `${Number(rps ?? 0).toFixed(0)} req/s, under the floor of ${minRps} req/s`,
    !(p99 <= maxP99Ms) && `p99 ${p99} ms, over the ceiling of ${maxP99Ms} ms`,
  ]);
  return result;
}

/** Refuses a measured run (a ratio's other side included): figures over 5xx answers or errors are a lie too. */
export function checkHttpMeasured(label, result) {
  const problems = httpRunProblems(result);
  if (problems.length > 0) throw new Error(`measured run broken: ${label}: ${problems.join(', ')}`);
  return result;
}

/** Problems of a timed piece of work used as a baseline: no time taken (or not a number), no output. */
export function timedProblems(ms, { produced = true } = {}) {
  return [!(Number.isFinite(ms) && ms > 0) && `took ${ms} ms`, !produced && 'produced no output'].filter(Boolean);
}

/** The line a benchmark prints when it fails: a refusal as it is, anything else with its stack. */
export function failureText(err) {
  return err instanceof BaselineBroken ? err.message : `bench failed: ${err?.stack ?? err?.message ?? err}`;
}

/**
 * A benchmark's last lines: runs `main`, prints why it failed if it did, always runs `cleanup` (stopping
 * what it started), and ends the process with 0 or 1. `main` may be a promise already under way.
 */
export async function runBench(main, cleanup) {
  let failed = false;
  try {
    await (typeof main === 'function' ? main() : main);
  } catch (err) {
    failed = true;
    console.error(failureText(err));
  } finally {
    await cleanup();
  }
  process.exit(failed ? 1 : 0);
}

const DECODERS = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/** `body` decoded through its Content-Encoding (codings applied in order, so undone in reverse); throws on a lie. */
export function decodeBody(body, contentEncoding) {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  return codings.reduceRight((bytes, coding) => {
    if (!DECODERS[coding]) throw new Error(`unknown Content-Encoding ${coding}`);
    return DECODERS[coding](bytes);
  }, body);
}

/**
 * One GET of `url` over a socket of its own (Connection: close), read to the end: the status, headers
 * and exactly the bytes after the header block, so framing can be checked (fetch would hide it).
 */
export function wireAnswer(url, headers = {}, timeoutMs = 5000) {
  const { hostname, port, pathname, search } = new URL(url);
  const lines = [
    `GET ${pathname}${search} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no complete answer from ${url} within ${timeoutMs} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks);
      const cut = raw.indexOf('\r\n\r\n');
      if (cut < 0) return reject(new Error(`${url} sent no complete header block`));
      const [statusLine, ...headerLines] = raw.subarray(0, cut).toString('latin1').split('\r\n');
      const answer = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        answer[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: answer, body: raw.subarray(cut + 4) });
    });
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/**
 * Refuses a bare server that does not put `sample` on the wire as it is: another status, a Content-Length
 * other than the bytes sent, another Content-Encoding, a body that does not decode, or other bytes.
 */
export async function checkBareAnswer(label, url, sample, headers = {}) {
  let got;
  try {
    got = await wireAnswer(url, headers);
  } catch (err) {
    throw new BaselineBroken(`${label}: ${err.message}`);
  }
  const length = got.headers['content-length'];
  let undecodable;
  try {
    decodeBody(got.body, got.headers['content-encoding']);
  } catch (err) {
    undecodable = `its body does not decode as Content-Encoding ${got.headers['content-encoding']} says (${err.message})`;
  }
  refuseBaseline(label, [
    got.status !== sample.status && `answered ${got.status}, the sample ${sample.status}`,
    got.headers['transfer-encoding'] !== undefined && `sent Transfer-Encoding ${got.headers['transfer-encoding']}`,
    Number(length) !== got.body.length && `Content-Length ${length} but ${got.body.length} bytes on the wire`,
    (got.headers['content-encoding'] ?? '') !== (sample.headers['content-encoding'] ?? '') &&
      `Content-Encoding ${got.headers['content-encoding'] ?? 'none'}, the sample's ${sample.headers['content-encoding'] ?? 'none'}`,
    undecodable,
    !got.body.equals(sample.body) && `sent ${got.body.length} bytes other than the sample's ${sample.body.length}`,
  ]);
  return got;
}
