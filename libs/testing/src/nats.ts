import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testInfra } from './infra.js';

/** Deletes every JetStream stream whose name starts with the prefix. */
export async function deleteStreamsWithPrefix(prefix: string): Promise<string[]> {
  const nc = await connect({ servers: testInfra().natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const deleted: string[] = [];
    for await (const info of jsm.streams.list()) {
      if (info.config.name.startsWith(prefix)) {
        await jsm.streams.delete(info.config.name);
        deleted.push(info.config.name);
      }
    }
    return deleted;
  } finally {
    await nc.close();
  }
}
