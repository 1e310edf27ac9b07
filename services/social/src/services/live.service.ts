import type { socialV1 } from '@clipit/contracts';
import { checkStreamTime } from '@clipit/field-rules';
import { forbidden, invalid, Outbox, uuidOrUndefined, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { toSocialPerson, type PersonRow } from '../domain/person.js';
import { FollowRepository } from '../repositories/follow.repository.js';
import { LiveRepository, type LiveStateRow } from '../repositories/live.repository.js';
import { DirectoryService } from './directory.service.js';

export function toStreamState(s: LiveStateRow): socialV1.StreamState {
  return { isLive: s.isLive ? 'true' : 'false', ...(s.nextStreamTime ? { nextStreamTime: s.nextStreamTime.toISOString() } : {}) };
}

/**
 * A streamer's live state and next stream time (spec 02 §2.3 streaming tab, §4 streamer live state):
 * Offline → Live through go-live (followers are told once per live period), back through go-offline.
 * Each change is stored with its event, under the streamer's row lock, with a revision that orders it.
 */
@Injectable()
export class LiveService {
  constructor(
    private readonly live: LiveRepository,
    private readonly follows: FollowRepository,
    private readonly directory: DirectoryService,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  async setStreamTime(request: socialV1.SetStreamTimeRequest, now = new Date()): Promise<socialV1.StreamState> {
    const streamer = await this.streamer(request.userId, messages.streamTimeStreamersOnly);
    const checked = checkStreamTime(request.streamTime ?? null, now);
    if (!checked.ok) throw invalid(checked.error);
    return this.transactions.run(async (tx) => {
      const current = await this.live.lock(tx, streamer.id);
      if (sameTime(current.nextStreamTime, checked.value)) return toStreamState(current);
      const next = await this.live.setStreamTime(tx, streamer.id, checked.value, now);
      await this.outbox.append(tx, 'social.stream-time-changed', {
        userId: streamer.id,
        nextStreamTime: next.nextStreamTime?.toISOString() ?? null,
        revision: next.streamTimeRevision,
        at: now.toISOString(),
      });
      return toStreamState(next);
    });
  }

  /**
   * Goes live and tells the followers (the event carries how many). Already live: nothing changes and
   * nobody is told again (once per live period), so notifiedFollowers is 0.
   */
  async goLive(request: socialV1.GoLiveRequest, now = new Date()): Promise<socialV1.GoLiveResult> {
    const streamer = await this.streamer(request.userId, messages.goLiveStreamersOnly);
    return this.transactions.run(async (tx) => {
      const current = await this.live.lock(tx, streamer.id);
      if (current.isLive) return { notifiedFollowers: 0, state: toStreamState(current) };
      const next = await this.live.goLive(tx, streamer.id, now);
      const notifiedFollowers = await this.follows.count(streamer.id, tx);
      await this.outbox.append(tx, 'social.live-changed', {
        streamer: toSocialPerson(streamer),
        isLive: true,
        livePeriod: next.livePeriod,
        revision: next.liveRevision,
        notifiedFollowers,
        at: now.toISOString(),
      });
      return { notifiedFollowers, state: toStreamState(next) };
    });
  }

  /** Goes offline; offline already changes nothing. */
  async goOffline(request: socialV1.GoOfflineRequest, now = new Date()): Promise<socialV1.StreamState> {
    const streamer = await this.streamer(request.userId, messages.goOfflineStreamersOnly);
    return this.transactions.run(async (tx) => {
      const current = await this.live.lock(tx, streamer.id);
      if (!current.isLive) return toStreamState(current);
      const next = await this.live.goOffline(tx, streamer.id, now);
      await this.outbox.append(tx, 'social.live-changed', {
        streamer: toSocialPerson(streamer),
        isLive: false,
        livePeriod: null,
        revision: next.liveRevision,
        notifiedFollowers: 0,
        at: now.toISOString(),
      });
      return toStreamState(next);
    });
  }

  private async streamer(rawId: string, refusal: string): Promise<PersonRow> {
    const id = uuidOrUndefined(rawId);
    if (!id) throw invalid(messages.invalidUserId);
    const person = await this.directory.require(id);
    if (person.role !== 'streamer') throw forbidden(refusal);
    return person;
  }
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return (a?.getTime() ?? null) === (b?.getTime() ?? null);
}
