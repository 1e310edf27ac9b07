import { LOGGER } from '@clipit/service-kit';
import { STORAGE } from '@clipit/storage';
import type { ObjectInfo, StorageDriver } from '@clipit/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

/** Object storage (profile pictures and banners); the driver is chosen by STORAGE_DRIVER. */
@Injectable()
export class StorageRepository {
  constructor(
    @Inject(STORAGE) private readonly driver: StorageDriver,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.driver.put(key, body, contentType);
  }

  delete(key: string): Promise<void> {
    return this.driver.delete(key);
  }

  stat(key: string): Promise<ObjectInfo | undefined> {
    return this.driver.stat(key);
  }

  /** A URL the browser PUTs the bytes to, where the store checks it (S3); undefined where the gateway takes them (filesystem). */
  async presignedPutUrl(key: string, ttlSeconds: number): Promise<string | undefined> {
    return this.driver.presignedPutUrl?.(key, ttlSeconds);
  }

  /** The first `length` bytes of an object (fewer when it is shorter). */
  async head(key: string, size: number, length: number): Promise<Buffer> {
    if (size === 0) return Buffer.alloc(0);
    const stream = await this.driver.read(key, { start: 0, end: Math.min(size, length) - 1 });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks).subarray(0, length);
  }

  /** Copies an object to another key with the content type given (the one its bytes were found to be). */
  async copy(from: string, to: string, contentType: string): Promise<void> {
    await this.driver.put(to, await this.driver.read(from), contentType);
  }

  /**
   * Removes bytes nothing uses any more, once the change that made them useless is committed: a
   * failure is logged, not thrown, because the caller's answer no longer depends on it.
   */
  async discard(key: string, what: string): Promise<void> {
    await this.driver.delete(key).catch((err: unknown) => this.logger.warn({ err, key }, `could not remove ${what}`));
  }
}
