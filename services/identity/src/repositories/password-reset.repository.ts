import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PasswordResetEntity } from '../entities/password-reset.entity.js';

@Injectable()
export class PasswordResetRepository {
  async record(tx: EntityManager, entry: { userId: string; at: Date; ip: string | null }): Promise<void> {
    await tx.getRepository(PasswordResetEntity).insert(entry);
  }
}
