import { LOGGER } from '@clipit/service-kit';
import { STORAGE, type ObjectInfo, type StorageDriver } from '@clipit/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

/** Uploaded videos in object storage (the driver STORAGE_DRIVER chose): what submissions itself does with them. */
@Injectable()
export class VideoStorageRepository {
  constructor(
    @Inject(STORAGE) private readonly driver: StorageDriver,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A URL the client PUTs the bytes to, where the driver signs them (S3); undefined where the gateway takes them (filesystem). */
  async presignedPutUrl(key: string, ttlSeconds: number): Promise<string | undefined> {
    return this.driver.presignedPutUrl?.(key, ttlSeconds);
  }

  stat(key: string): Promise<ObjectInfo | undefined> {
    return this.driver.stat(key);
  }

  /**
   * Removes bytes nothing will use, once the change that made them useless is committed: a failure
   * is logged, not thrown, because the caller's answer no longer depends on it.
   */
  async discard(key: string, what: string): Promise<void> {
    await this.driver.delete(key).catch((err: unknown) => this.logger.warn({ err, key }, `could not remove ${what}`));
  }
}
