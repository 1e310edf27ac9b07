// The public remote: the public area (spec 01: home, feed, discover, leaderboard, clipper profiles, login, submit, …).
import { frontendConfig } from '@clipit/frontend-build';

export default (_env, argv) =>
  frontendConfig(
    {
      name: 'public',
      dir: import.meta.dirname,
      // The keys are the contract of @clipit/frontend-contracts (RemoteExposes); src/exposes/contract.ts checks the shapes.
      exposes: {
        './routes': './src/exposes/routes.ts',
        './version': './src/exposes/version.ts',
        './AddClipDialog': './src/exposes/AddClipDialog.ts',
      },
    },
    argv,
  );
