// The modules the remotes expose, typed as the remotes' own sources declare them: generated into
// frontends/shell/@mf-types/<remote>/ by `npm run remote-types` (`npm test` fails when they are stale).
// The shell loads a known remote's modules with these types, and checks here that they satisfy the
// contract it was written against (@clipit/frontend-contracts): a remote whose exposed module no longer
// fits fails the shell's type-check, not a page at run time.
import type { PublicRemoteExposes, RemoteExposes, RemoteName } from '@clipit/frontend-contracts';
import type * as adminRoutes from '@mf-types/admin/routes';
import type * as adminVersion from '@mf-types/admin/version';
import type * as dashboardRoutes from '@mf-types/dashboard/routes';
import type * as dashboardVersion from '@mf-types/dashboard/version';
import type * as publicAddClipDialog from '@mf-types/public/AddClipDialog';
import type * as publicRoutes from '@mf-types/public/routes';
import type * as publicVersion from '@mf-types/public/version';

/** Each remote's exposed modules by expose key, from the generated types. */
export interface RemoteModules {
  public: { './routes': typeof publicRoutes; './version': typeof publicVersion; './AddClipDialog': typeof publicAddClipDialog };
  dashboard: { './routes': typeof dashboardRoutes; './version': typeof dashboardVersion };
  admin: { './routes': typeof adminRoutes; './version': typeof adminVersion };
}

/** Fails to compile unless `Generated` has every module of `Contract`, each assignable to its contract type. */
type Satisfies<Generated extends Contract, Contract> = [Generated, Contract];

export type ContractCheck = [
  Satisfies<RemoteModules['public'], PublicRemoteExposes>,
  Satisfies<RemoteModules['dashboard'], RemoteExposes>,
  Satisfies<RemoteModules['admin'], RemoteExposes>,
  // Every remote of the site has generated types, and nothing else does.
  Satisfies<RemoteName, keyof RemoteModules>,
  Satisfies<keyof RemoteModules, RemoteName>,
];

/**
 * The modules of a remote the shell may load: the generated ones for a remote of this build, and the
 * contract's (`./routes`, `./version`) for one an environment's /remotes.json adds that it does not know.
 */
export type ExposesOf<R extends string> = R extends keyof RemoteModules ? RemoteModules[R] : RemoteExposes;

/** Loads one exposed module of a remote (`load('public', './AddClipDialog')`), typed by `ExposesOf`. */
export type LoadRemoteModule = <R extends string, K extends keyof ExposesOf<R> & `./${string}`>(
  remote: R,
  expose: K,
) => Promise<ExposesOf<R>[K]>;
