import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import { Counter } from 'prom-client';

/** Videos the reconciler drove through the media queue again, by what it did: `retried` (a finished job) or `added` (a lost one). */
export const mediaRedrives = metricOnce(
  'media_redrives_total',
  () =>
    new Counter({
      name: 'media_redrives_total',
      help: 'Videos processing too long that the reconciler re-drove through the media queue, by action (retried: its job had finished without the verdict arriving; added: Redis no longer had it) and the state the job was found in',
      labelNames: ['action', 'state'],
      registers: [metricsRegistry],
    }),
);

/** Posts the metrics scheduler queued for their X metrics. */
export const metricsPostsQueued = metricOnce(
  'metrics_posts_queued_total',
  () =>
    new Counter({
      name: 'metrics_posts_queued_total',
      help: 'Approved posts the metrics scheduler queued on the metrics queue (in batches of at most 100) for their X metrics',
      registers: [metricsRegistry],
    }),
);
