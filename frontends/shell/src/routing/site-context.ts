import { createContext, useContext } from 'react';
import { RemoteLoadError } from '../federation/registry.js';
import type { LoadRemoteModule } from '../federation/remote-types.js';
import type { SiteState } from '../federation/site.js';

export interface SiteActions {
  /** Where the site is: the remotes still being found, /remotes.json unreachable, or ready. */
  phase: SiteState['phase'];
  /** Loads again whatever remote failed to load. */
  retry: () => void;
  retrying: boolean;
  /** One exposed module of a loaded remote (the public remote's add-clip dialog); RemoteLoadError if it cannot be had. */
  load: LoadRemoteModule;
}

export const SiteContext = createContext<SiteActions>({
  phase: 'starting',
  retry: () => undefined,
  retrying: false,
  load: (remote) => Promise.reject(new RemoteLoadError(remote, `${remote} is not loaded`)),
});

export const useSite = (): SiteActions => useContext(SiteContext);
