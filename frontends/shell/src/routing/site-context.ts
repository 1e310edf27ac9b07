import { createContext, useContext } from 'react';

export interface SiteActions {
  /** Loads again whatever remote failed to load. */
  retry: () => void;
  retrying: boolean;
}

export const SiteContext = createContext<SiteActions>({ retry: () => undefined, retrying: false });

export const useSite = (): SiteActions => useContext(SiteContext);
