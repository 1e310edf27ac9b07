import type { developerV1 } from '@clipit/contracts';
import { SERVICE_INFO, type ServiceInfo } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { MigrationRepository } from '../repositories/migration.repository.js';

/** What this replica runs: the version it was built from and the migrations its database has. */
@Injectable()
export class DescribeService {
  constructor(
    private readonly migrations: MigrationRepository,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {}

  async describe(): Promise<developerV1.Description> {
    return { service: this.info.name, version: this.info.version, migrations: await this.migrations.applied() };
  }
}
