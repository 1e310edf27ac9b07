import { SERVICE_INFO } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { MigrationRepository } from '../repositories/migration.repository.js';
import { DescribeService } from './describe.service.js';

// Unit specs build the service with every dependency a strict auto-mock (libs/testing): a call the test
// did not set up fails where it happens. The repositories' SQL is proven by the integration tests.

describe('DescribeService', () => {
  it('answers the service, its package version and the migrations its repository reports', async () => {
    const { service, mock } = createTestService(DescribeService, { [SERVICE_INFO]: { name: 'developer', version: '0.1.0' } });
    mock(MigrationRepository).applied.mockResolvedValue(['CreateEventBusTables1763700000000']);
    await expect(service.describe()).resolves.toEqual({
      service: 'developer',
      version: '0.1.0',
      migrations: ['CreateEventBusTables1763700000000'],
    });
  });
});
