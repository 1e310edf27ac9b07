// `npm run bench:soak`: the soak of e2e/faults/soak.bench.ts (50 people for 5 minutes, a fault a minute) on
// the fault harness (libs/testing/src/faults). A benchmark, not a test of `npm test`: it prints its figures.
import faults from './jest.faults.config.js';

export default {
  ...faults,
  testTimeout: 3_600_000,
  projects: [{ ...faults.projects[0], displayName: 'soak', testMatch: ['<rootDir>/e2e/faults/soak.bench.ts'] }],
};
