import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { LOGGER } from '@clipit/service-kit';
import { linkHeader, pagePreloadsOf, preloadsFor, shellStartupOf, type ManifestForPreload, type PagePreloads } from './page-preloads.js';
import { defaultManifestUrl, remotesDocument, REMOTE_NAMES } from './remotes-config.js';
import { htmlSecurityHeaders, remoteOrigins } from './security-headers.js';

/** Where the shell reads the remotes (REMOTES_MANIFEST_PATH of @clipit/frontend-contracts; the controller serves it). */
const REMOTES_DOCUMENT_PATH = '/remotes.json';
/** Where the shell's build lists the files of its first render (STARTUP_FILE of @clipit/frontend-build). */
const SHELL_STARTUP_FILE = 'startup.json';
import { StaticFolder, type StaticFile } from './static-folder.js';
import { safeRelativePath } from './web-rules.js';

export interface FoundFile {
  folder: StaticFolder;
  file: StaticFile;
}

/** The built web apps this gateway serves: the shell at the site root, each remote under /remotes/<name>/. */
@Injectable()
export class WebService implements OnModuleInit {
  private readonly shell: StaticFolder;
  private readonly remotes: Map<string, StaticFolder>;
  private readonly document: { remotes: Record<string, string> };
  /** Each served remote's manifest and its pages' files, as of the manifest's ETag (re-read when it is rebuilt). */
  private readonly pages = new Map<string, { etag: string; manifest: unknown; preloads: PagePreloads[] }>();
  /** The shell's startup files, as of its startup.json's ETag. */
  private startup: { etag: string; files: string[] } | undefined;
  /** What every HTML answer carries: the Content-Security-Policy (allowing remotes served elsewhere) and the rest (docs/adr/0036). */
  readonly htmlHeaders: Readonly<Record<string, string>>;

  constructor(
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.shell = new StaticFolder(config.FRONTEND_SHELL_DIR);
    // FRONTEND_REMOTES_DIR/<name> when set (a deploy copies the builds side by side), else each build where it is made.
    const folderOf = (name: string) =>
      config.FRONTEND_REMOTES_DIR ? join(config.FRONTEND_REMOTES_DIR, name) : join('frontends', name, 'dist');
    this.remotes = new Map(REMOTE_NAMES.map((name) => [name, new StaticFolder(folderOf(name))]));
    this.document = remotesDocument(config.FRONTEND_REMOTES);
    this.htmlHeaders = htmlSecurityHeaders(remoteOrigins(Object.values(this.document.remotes)));
  }

  async onModuleInit(): Promise<void> {
    if (!(await this.shellIndex())) {
      this.log.warn(
        { folder: this.shell.root },
        'the web app is not built (no index.html): the site answers 503 until `npm run build:web` has run',
      );
    }
  }

  /**
   * GET /remotes.json: where each remote's manifest is, and the manifests of the remotes served here,
   * so the shell has every page and the runtime what it loads a remote by, without fetching them first.
   */
  async remotesDocument(): Promise<{ remotes: Record<string, string>; manifests?: Record<string, unknown> }> {
    const manifests: Record<string, unknown> = {};
    for (const remote of await this.servedRemotes()) if (remote.manifest !== undefined) manifests[remote.name] = remote.manifest;
    return Object.keys(manifests).length > 0 ? { remotes: this.document.remotes, manifests } : { remotes: this.document.remotes };
  }

  /** The remotes this gateway serves itself (those /remotes.json points here for) that are built, with their manifests. */
  private async servedRemotes(): Promise<Array<{ name: string; manifest: unknown; preloads: PagePreloads[] }>> {
    const served = [];
    for (const [name, folder] of this.remotes) {
      if (this.document.remotes[name] !== defaultManifestUrl(name)) continue;
      const manifest = await folder.find('mf-manifest.json');
      if (!manifest) continue;
      let known = this.pages.get(name);
      if (known?.etag !== manifest.etag) {
        try {
          const json = JSON.parse(await readFile(manifest.path, 'utf8')) as ManifestForPreload;
          known = { etag: manifest.etag, manifest: json, preloads: pagePreloadsOf(json, `/remotes/${name}/`) };
        } catch (err) {
          this.log.warn({ err, remote: name }, 'a remote manifest could not be read');
          known = { etag: manifest.etag, manifest: undefined, preloads: [] };
        }
        this.pages.set(name, known);
      }
      served.push({ name, ...known });
    }
    return served;
  }

  async shellIndex(): Promise<FoundFile | undefined> {
    return this.found(this.shell, 'index.html');
  }

  /**
   * The `Link` header that has the browser fetch with the HTML what the shell would otherwise find one
   * round trip after another: the shell's own startup files (its entry and the chunks it loads before
   * rendering), /remotes.json (with the served remotes' manifests), and for the page at `path` the
   * files of the remote that owns it (its entry, route list and screen) and, at its plain address (`search` empty), the API reads
   * its screen makes first. Only the remotes this gateway serves (those /remotes.json points here for);
   * a manifest that cannot be read just gives no page files.
   */
  async preloadLinks(path: string, search = ''): Promise<string> {
    const preloads = (await this.servedRemotes()).flatMap((remote) => remote.preloads);
    return linkHeader([...(await this.shellStartup()), REMOTES_DOCUMENT_PATH, ...preloadsFor(preloads, path, search)]);
  }

  /** The shell's startup files (none when its build lists none, e.g. a build from before the list). */
  private async shellStartup(): Promise<string[]> {
    const found = await this.shell.find(SHELL_STARTUP_FILE);
    if (!found) return [];
    if (this.startup?.etag !== found.etag) {
      let files: string[] = [];
      try {
        files = shellStartupOf(JSON.parse(await readFile(found.path, 'utf8')));
      } catch (err) {
        this.log.warn({ err }, "the shell's startup.json could not be read for preloads");
      }
      this.startup = { etag: found.etag, files };
    }
    return this.startup.files;
  }

  /** A file of the shell's build, by request path. */
  async shellFile(path: string): Promise<FoundFile | undefined> {
    return this.found(this.shell, path);
  }

  /** A file of a remote's build by the path after /remotes/ (`<name>/<file>`). */
  async remoteFileAt(path: string): Promise<FoundFile | undefined> {
    const slash = path.indexOf('/');
    return slash > 0 ? this.remoteFile(path.slice(0, slash), path.slice(slash + 1)) : undefined;
  }

  /** A file of a remote's build: `rest` is the path after /remotes/<name>/. */
  async remoteFile(name: string, rest: string): Promise<FoundFile | undefined> {
    const folder = this.remotes.get(name);
    return folder ? this.found(folder, rest) : undefined;
  }

  private async found(folder: StaticFolder, path: string): Promise<FoundFile | undefined> {
    const relative = safeRelativePath(path);
    const file = relative === undefined ? undefined : await folder.find(relative);
    return file ? { folder, file } : undefined;
  }
}
