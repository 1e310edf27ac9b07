// The modules every remote exposes to the shell. A remote's rspack config lists them under the same
// keys; its sources prove the shapes with `satisfies` (see frontends/<remote>/src/exposes/), and the
// shell loads them with these types, so both sides are checked against this one file.
import type { ComponentType } from 'react';
import { containerName } from './remotes.js';

/**
 * One page a remote contributes to the shell's route table. `path` is absolute (`/feed`,
 * `/clipper/:id`); the shell mounts it inside the frame and sets `document.title` from `title`.
 */
export interface RemoteRoute {
  path: string;
  /** Shown as the browser tab title while the route is open. */
  title: string;
  /** The page's meta description (what search results and link previews show), one or two sentences. */
  description: string;
  /**
   * The API reads (GET paths, `:param`s filled from the page's path) the screen makes when it first
   * renders at the page's plain address (no query string), exactly as it requests them. The gateway has
   * the browser fetch them with the page's HTML (`Link: rel=preload`), so the data arrives beside the
   * code instead of one round trip after the screen renders (docs/adr/0023-public-site-loading.md).
   */
  reads?: readonly string[];
  /**
   * The screen, loaded when the route is first visited, so the route list itself stays tiny.
   * (A component given directly would be downloaded with the list, before the first render.)
   */
  lazy: () => Promise<{ default: ComponentType }>;
}

/** `<remote>/routes`: the pages of that remote, in matching order (the router ranks them anyway). */
export interface RoutesModule {
  routes: readonly RemoteRoute[];
}

/** `<remote>/version`: which build of the remote is running (surfaced by the shell for operations and tests). */
export interface VersionModule {
  name: string;
  buildId: string;
}

/** The exposes every remote has, by expose key (`./routes` is loaded as `<remote>/routes`). */
export interface RemoteExposes {
  './routes': RoutesModule;
  './version': VersionModule;
}

/** Props of the add-clip dialog (spec 01 §2): the shell's mobile bottom bar opens it; the public remote owns it. */
export interface AddClipDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** `public/AddClipDialog`: the dialog as a default export. */
export interface AddClipDialogModule {
  default: ComponentType<AddClipDialogProps>;
}

/** What the public remote exposes beyond every remote's modules. */
export interface PublicRemoteExposes extends RemoteExposes {
  './AddClipDialog': AddClipDialogModule;
}

/**
 * `public/SubmissionForm`: the clip submission form (spec 01 §4) as a default export without props,
 * for the dashboard remote's Submit New Clip tab (spec 02 §2.2). Another remote loads it through the
 * page's federation runtime (the shell's instance, which knows where the public remote is).
 */
export interface SubmissionFormModule {
  default: ComponentType;
}

/** Props of the view history chart: the submission (its owner's), and whether to say when its metrics were fetched and if it is verified. */
export interface ViewHistoryProps {
  submissionId: string;
  details?: boolean;
}

/**
 * `public/ViewHistory`: a submission's view history for its owner (GET /api/submissions/{id}/metrics-history,
 * asked once it is near the screen), as a default export; the dashboard's submissions list shows it.
 */
export interface ViewHistoryModule {
  default: ComponentType<ViewHistoryProps>;
}

/** What the public remote exposes to the other remotes (the shell itself does not load these). */
export interface PublicRemoteSharedExposes {
  './SubmissionForm': SubmissionFormModule;
  './ViewHistory': ViewHistoryModule;
}

/** An expose key as a remote's build lists it: `./routes`. */
export type ExposeKey = `./${string}`;

/** The request the federation runtime takes: `clipit_public/routes` for `./routes` of `public`. */
export function remoteRequest(remote: string, expose: ExposeKey): string {
  return `${containerName(remote)}/${expose.slice(2)}`;
}
