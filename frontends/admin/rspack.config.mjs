// The admin remote: the admin area (spec 02: /admin behind its password gate, moderation).
import { frontendConfig } from '@clipit/frontend-build';

export default (_env, argv) =>
  frontendConfig(
    {
      name: 'admin',
      dir: import.meta.dirname,
      // The keys are the contract of @clipit/frontend-contracts (RemoteExposes); src/exposes/contract.ts checks the shapes.
      exposes: {
        './routes': './src/exposes/routes.ts',
        './version': './src/exposes/version.ts',
      },
    },
    argv,
  );
