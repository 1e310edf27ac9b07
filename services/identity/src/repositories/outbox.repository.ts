import { Outbox } from '@clipit/service-kit';
import type { EventData, EventType } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Events identity publishes, written in the same transaction as the change they report. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly outbox: Outbox) {}

  async append<T extends EventType>(tx: EntityManager, type: T, data: EventData<T>): Promise<void> {
    await this.outbox.append(tx, type, data);
  }
}
