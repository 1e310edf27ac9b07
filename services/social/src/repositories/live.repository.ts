import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface LiveStateRow {
  userId: string;
  isLive: boolean;
  livePeriod: number | null;
  liveSince: Date | null;
  liveRevision: number;
  nextStreamTime: Date | null;
  streamTimeRevision: number;
}

interface LiveStateRecord {
  user_id: string;
  is_live: boolean;
  live_period: string | null;
  live_since: Date | null;
  live_revision: number;
  next_stream_time: Date | null;
  stream_time_revision: number;
}

const toLiveState = (r: LiveStateRecord): LiveStateRow => ({
  userId: r.user_id,
  isLive: r.is_live,
  livePeriod: r.live_period === null ? null : Number(r.live_period),
  liveSince: r.live_since,
  liveRevision: r.live_revision,
  nextStreamTime: r.next_stream_time,
  streamTimeRevision: r.stream_time_revision,
});

/** Streamers' live state and next stream time (`live_states`, `live_period_seq`). */
@Injectable()
export class LiveRepository {
  /** The streamer's state, its row created when missing and locked until the transaction ends. */
  async lock(tx: EntityManager, userId: string): Promise<LiveStateRow> {
    await tx.query('INSERT INTO live_states (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
    const rows = (await tx.query('SELECT * FROM live_states WHERE user_id = $1 FOR UPDATE', [userId])) as LiveStateRecord[];
    return toLiveState(rows[0]!);
  }

  /** Starts a live period: the next platform-wide period number, this streamer's next live revision. */
  async goLive(tx: EntityManager, userId: string, at: Date): Promise<LiveStateRow> {
    const rows = (await tx.query(
      `UPDATE live_states SET is_live = true, live_period = nextval('live_period_seq'), live_since = $2,
         live_revision = live_revision + 1, updated_at = $2
       WHERE user_id = $1 RETURNING *`,
      [userId, at],
    )) as [LiveStateRecord[], number];
    return toLiveState(rows[0][0]!);
  }

  async goOffline(tx: EntityManager, userId: string, at: Date): Promise<LiveStateRow> {
    const rows = (await tx.query(
      `UPDATE live_states SET is_live = false, live_period = NULL, live_since = NULL, live_revision = live_revision + 1, updated_at = $2
       WHERE user_id = $1 RETURNING *`,
      [userId, at],
    )) as [LiveStateRecord[], number];
    return toLiveState(rows[0][0]!);
  }

  async setStreamTime(tx: EntityManager, userId: string, streamTime: Date | null, at: Date): Promise<LiveStateRow> {
    const rows = (await tx.query(
      `UPDATE live_states SET next_stream_time = $2, stream_time_revision = stream_time_revision + 1, updated_at = $3
       WHERE user_id = $1 RETURNING *`,
      [userId, streamTime, at],
    )) as [LiveStateRecord[], number];
    return toLiveState(rows[0][0]!);
  }
}
