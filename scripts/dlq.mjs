// Lists the events parked on the dead-letter stream: which consumer gave up on what, after how many
// attempts, and why. `npm run dlq` (all) or `npm run dlq -- <consumer>`; reads NATS_URL and
// EVENTS_STREAM like the services (defaults: nats://127.0.0.1:4222, CLIPIT_EVENTS). Read-only.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const stream = `${process.env.EVENTS_STREAM || 'CLIPIT_EVENTS'}_DLQ`;
const consumerFilter = process.argv[2];

const nc = await connect({ servers: natsUrl.split(',') });
try {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(stream).catch(() => undefined);
  if (!info || info.state.messages === 0) {
    console.log(`${stream}: no dead letters`);
  } else {
    const name = `dlq-view-${process.pid}`;
    await jsm.consumers.add(stream, { name, ack_policy: 'none', deliver_policy: 'all', inactive_threshold: 30e9 });
    const consumer = await jetstream(nc).consumers.get(stream, name);
    const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 5000 });
    let shown = 0;
    for await (const m of batch) {
      const who = m.headers?.get('Clipit-Consumer') ?? '?';
      if (consumerFilter && who !== consumerFilter) continue;
      let id = '?';
      let type = '?';
      try {
        ({ id, type } = m.json());
      } catch {
        // not an envelope: shown by its size
      }
      const when = new Date(Math.floor(Number(m.info.timestampNanos) / 1e6)).toISOString();
      console.log(
        `${when}  consumer=${who}  type=${type}  event=${id}  attempts=${m.headers?.get('Clipit-Attempts') ?? '?'}  subject=${m.headers?.get('Clipit-Original-Subject') ?? '?'}  bytes=${m.data.length}\n    error: ${m.headers?.get('Clipit-Error') ?? '?'}`,
      );
      shown += 1;
      if (m.info.pending === 0) break;
    }
    console.log(`${stream}: ${shown} dead letter(s)${consumerFilter ? ` of ${consumerFilter}` : ''} of ${info.state.messages}`);
    await jsm.consumers.delete(stream, name).catch(() => undefined);
  }
} finally {
  await nc.close();
}
