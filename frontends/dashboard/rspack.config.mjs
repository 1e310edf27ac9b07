// The dashboard remote: the signed-in areas (spec 02: clipper and streamer dashboards, campaigns, hiring, the guide).
import { frontendConfig } from '@clipit/frontend-build';

export default (_env, argv) =>
  frontendConfig(
    {
      name: 'dashboard',
      dir: import.meta.dirname,
      // The keys are the contract of @clipit/frontend-contracts (RemoteExposes); src/exposes/contract.ts checks the shapes.
      exposes: {
        './routes': './src/exposes/routes.ts',
        './version': './src/exposes/version.ts',
      },
    },
    argv,
  );
