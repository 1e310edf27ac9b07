// What the tracing benchmarks (tracing.mjs, tracing-paired.mjs) share: the OTLP sink the traced processes export
// to, the variables that put a process in a mode, and the feed's clips.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { subjectFor } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, jetstream } from '@clipit/service-kit';
import { approvedClip } from './seed.mjs';

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

/** `count` clips of `owner` approved, published on `backend`'s stream as submissions publishes them; answers their ids. */
export async function publishApprovedClips(backend, owner, count) {
  const nc = await connectNats(backend.env.NATS_URL, 'bench-tracing-clips');
  const ids = [];
  try {
    const js = jetstream(nc);
    for (let n = 0; n < count; n += 1) {
      const id = randomUUID();
      const envelope = buildEventEnvelope('submission.approved', {
        submission: approvedClip({ id, owner, n, when: new Date().toISOString() }),
      });
      await js.publish(subjectFor('submission.approved', backend.names.subjectPrefix), JSON.stringify(envelope), { msgID: envelope.id });
      ids.push(id);
    }
  } finally {
    await nc.close();
  }
  return ids;
}
