// The public remote: the public area (spec 01: home, feed, discover, leaderboard, clipper profiles, login, submit, …).
import { frontendConfig } from '@clipit/frontend-build';

/**
 * What this remote exposes. The keys are the contract of @clipit/frontend-contracts; src/exposes/contract.ts
 * checks the shapes, and `npm run remote-types` generates the shell's types of these modules from here.
 */
export const exposes = {
  './routes': './src/exposes/routes.ts',
  './version': './src/exposes/version.ts',
  './AddClipDialog': './src/exposes/AddClipDialog.ts',
  './SubmissionForm': './src/exposes/SubmissionForm.ts',
  './ViewHistory': './src/exposes/ViewHistory.ts',
};

export default (_env, argv) =>
  frontendConfig(
    {
      name: 'public',
      dir: import.meta.dirname,
      exposes,
    },
    argv,
  );
