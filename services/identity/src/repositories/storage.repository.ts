import { STORAGE } from '@clipit/storage';
import type { StorageDriver } from '@clipit/storage';
import { Inject, Injectable } from '@nestjs/common';

/** Object storage (profile pictures); the driver is chosen by STORAGE_DRIVER. */
@Injectable()
export class StorageRepository {
  constructor(@Inject(STORAGE) private readonly driver: StorageDriver) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.driver.put(key, body, contentType);
  }

  delete(key: string): Promise<void> {
    return this.driver.delete(key);
  }
}
