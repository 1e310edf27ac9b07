import { Outbox } from '@clipit/service-kit';
import type { EventData, EventType } from '@clipit/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { IDENTITY_CONFIG } from '../identity.tokens.js';

/** Events identity publishes, written in the same transaction as the change they report. */
@Injectable()
export class OutboxRepository {
  private readonly outbox: Outbox;

  constructor(@Inject(IDENTITY_CONFIG) config: IdentityConfig) {
    this.outbox = new Outbox(config.EVENTS_SUBJECT_PREFIX);
  }

  async append<T extends EventType>(tx: EntityManager, type: T, data: EventData<T>): Promise<void> {
    await this.outbox.append(tx, type, data);
  }
}
