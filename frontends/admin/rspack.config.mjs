// The admin remote: the admin area (spec 02: /admin behind its password gate, moderation).
import { frontendConfig } from '@clipit/frontend-build';

/**
 * What this remote exposes. The keys are the contract of @clipit/frontend-contracts; src/exposes/contract.ts
 * checks the shapes, and `npm run remote-types` generates the shell's types of these modules from here.
 */
export const exposes = {
  './routes': './src/exposes/routes.ts',
  './version': './src/exposes/version.ts',
};

export default (_env, argv) =>
  frontendConfig(
    {
      name: 'admin',
      dir: import.meta.dirname,
      exposes,
    },
    argv,
  );
