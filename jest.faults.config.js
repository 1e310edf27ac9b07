// The fault suite (`npm run test:faults`, also the last step of `npm test`): the platform as real processes
// on private PostgreSQL, NATS and Redis servers (libs/testing/src/faults), with parts of it stopped, killed
// and restarted in the middle of the journeys. In the compressed time profile the shard files run two at a
// time, each on its own platform; the real-time profile (`npm run test:faults:long`, FAULT_PROFILE=real-time)
// one file at a time, as the 60 s outages always ran.
import base from './jest.config.js';

const e2e = base.projects.find((p) => p.displayName === 'e2e');

export default {
  testTimeout: 600_000,
  maxWorkers: process.env.FAULT_PROFILE === 'real-time' ? 1 : 2,
  // The last shard first, then the replicas check and the first shard on the other worker (the sequencer says why).
  testSequencer: '<rootDir>/libs/testing/jest/faults-sequencer.mjs',
  projects: [
    {
      ...e2e,
      displayName: 'faults',
      testMatch: ['<rootDir>/e2e/faults/**/*.faults.spec.ts'],
      // The services built once, before the files that run side by side start them as processes.
      globalSetup: '<rootDir>/libs/testing/jest/faults-global-setup.mjs',
      globalTeardown: undefined,
    },
  ],
};
