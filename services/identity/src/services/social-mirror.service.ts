import type { RewardsStandingChangedV1, SocialLiveChangedV1, SocialStreamTimeChangedV1 } from '@clipit/contracts';
import { Outbox } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toUserSnapshot } from '../domain/user.mapper.js';
import type { UserEntity } from '../entities/user.entity.js';
import { UserRepository } from '../repositories/user.repository.js';

/**
 * The user fields other services own, mirrored onto identity's users: the social service's isLive and
 * nextStreamTime, and the rewards service's currentTier (ADR 0025). Mirrored so
 * every answer that carries a user (/api/user/me, and through user.updated the feed and discover read
 * models) shows them without asking social per request (ADR 0021). Each event is applied in the
 * transaction of its inbox row, only when its revision is above the one held, and a real change is told
 * on as user.updated like any other change of a user.
 */
@Injectable()
export class SocialMirrorService {
  constructor(
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
  ) {}

  async onLiveChanged(data: SocialLiveChangedV1, tx: EntityManager): Promise<void> {
    await this.apply(tx, data.streamer.id, (user) => {
      if (data.revision <= user.liveRevision) return undefined;
      const isLive = data.isLive ? 'true' : 'false';
      return { values: { isLive, liveRevision: data.revision }, changed: user.isLive === isLive ? [] : ['isLive'] };
    });
  }

  async onStreamTimeChanged(data: SocialStreamTimeChangedV1, tx: EntityManager): Promise<void> {
    await this.apply(tx, data.userId, (user) => {
      if (data.revision <= user.streamTimeRevision) return undefined;
      const nextStreamTime = data.nextStreamTime === null ? null : new Date(data.nextStreamTime);
      const same = (user.nextStreamTime?.getTime() ?? null) === (nextStreamTime?.getTime() ?? null);
      return { values: { nextStreamTime, streamTimeRevision: data.revision }, changed: same ? [] : ['nextStreamTime'] };
    });
  }

  /** The user tier the rewards service computed (ADR 0025): mirrored like social's fields, by revision. */
  async onStandingChanged(data: RewardsStandingChangedV1, tx: EntityManager): Promise<void> {
    await this.apply(tx, data.userId, (user) => {
      if (data.revision <= user.tierRevision) return undefined;
      return {
        values: { currentTier: data.currentTier, tierRevision: data.revision },
        changed: user.currentTier === data.currentTier ? [] : ['currentTier'],
      };
    });
  }

  /** Under the user's row lock: stale (or unknown user) writes nothing; a newer revision is stored; a changed value is published. */
  private async apply(
    tx: EntityManager,
    userId: string,
    decide: (user: UserEntity) => { values: Partial<UserEntity>; changed: string[] } | undefined,
  ): Promise<void> {
    const user = await this.users.getByIdForUpdate(tx, userId);
    if (!user) return;
    const decision = decide(user);
    if (!decision) return;
    const values: Partial<UserEntity> = { ...decision.values, ...(decision.changed.length ? { updatedAt: new Date() } : {}) };
    await this.users.update(tx, user.id, values);
    if (decision.changed.length === 0) return;
    await this.outbox.append(tx, 'user.updated', { user: toUserSnapshot({ ...user, ...values }), changed: decision.changed });
  }
}
