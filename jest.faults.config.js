// The fault suite (`npm run test:faults`, also the last step of `npm test`): the platform as real processes
// on private PostgreSQL, NATS and Redis servers (libs/testing/src/faults), with parts of it stopped, killed
// and restarted in the middle of the journeys. One file at a time: the outages are timed and the machine has
// two cores.
import base from './jest.config.js';

const e2e = base.projects.find((p) => p.displayName === 'e2e');

export default {
  testTimeout: 600_000,
  maxWorkers: 1,
  projects: [
    {
      ...e2e,
      displayName: 'faults',
      testMatch: ['<rootDir>/e2e/faults/**/*.faults.spec.ts'],
      globalSetup: undefined,
      globalTeardown: undefined,
    },
  ],
};
