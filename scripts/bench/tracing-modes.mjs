// What the tracing benchmarks (tracing.mjs, tracing-paired.mjs) share: the OTLP sink the traced processes export
// to, and the variables that put a process in a mode.
import { createServer } from 'node:http';

/** The OTLP sink: reads every export whole and answers 200 with an empty ExportTraceServiceResponse; counts them. */
export async function startOtlpSink() {
  const counts = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      counts.requests += 1;
      counts.bytes += bytes;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** What arrived so far: export requests and body bytes. */
    read: () => ({ ...counts }),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The tracing variables of a mode, for every process: no collector (off) when `ratio` is undefined, else
 * parentbased_traceidratio at `ratio`, exporting to `sinkUrl`; TRACE_REMOTE_PARENT=ratio either way. Any OTEL_*
 * of this shell is emptied first (empty reads as unset), so only the mode decides.
 */
export function tracingEnv(ratio, sinkUrl) {
  const inherited = Object.fromEntries(
    Object.keys(process.env)
      .filter((k) => k.startsWith('OTEL_'))
      .map((k) => [k, '']),
  );
  const on =
    ratio === undefined
      ? {}
      : { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) };
  return { ...inherited, TRACE_REMOTE_PARENT: 'ratio', ...on };
}
