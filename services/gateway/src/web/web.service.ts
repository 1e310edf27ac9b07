import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { LOGGER } from '@clipit/service-kit';
import { linkHeader, pagePreloadsOf, preloadsFor, type ManifestForPreload, type PagePreloads } from './page-preloads.js';
import { defaultManifestUrl, remotesDocument, REMOTE_NAMES } from './remotes-config.js';

/** Where the shell reads the remotes (REMOTES_MANIFEST_PATH of @clipit/frontend-contracts; the controller serves it). */
const REMOTES_DOCUMENT_PATH = '/remotes.json';
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
  /** Each served remote's pages with their files, as of its manifest's ETag (re-read when it is rebuilt). */
  private readonly pages = new Map<string, { etag: string; pages: PagePreloads[] }>();

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
  }

  async onModuleInit(): Promise<void> {
    if (!(await this.shellIndex())) {
      this.log.warn({ folder: this.shell.root }, 'the web app is not built (no index.html): the site answers 503 until `npm run build:web` has run');
    }
  }

  /** GET /remotes.json. */
  remotesDocument(): { remotes: Record<string, string> } {
    return this.document;
  }

  async shellIndex(): Promise<FoundFile | undefined> {
    return this.found(this.shell, 'index.html');
  }

  /**
   * The `Link` header that has the browser fetch with the HTML what the shell would otherwise find one
   * round trip after another: /remotes.json, the remotes' manifests, and the files of the page at `path`
   * (the remote that owns it: entry, route list, screen). Only the remotes this gateway serves (those
   * /remotes.json points here for); a manifest that cannot be read just gives no page files.
   */
  async preloadLinks(path: string): Promise<string> {
    const pages: PagePreloads[] = [];
    // What the shell reads first on every page: the site's remotes, then each remote's manifest.
    const documents = [REMOTES_DOCUMENT_PATH];
    for (const [name, folder] of this.remotes) {
      if (this.document.remotes[name] !== defaultManifestUrl(name)) continue;
      const manifest = await folder.find('mf-manifest.json');
      if (!manifest) continue;
      documents.push(defaultManifestUrl(name));
      let known = this.pages.get(name);
      if (known?.etag !== manifest.etag) {
        try {
          known = { etag: manifest.etag, pages: pagePreloadsOf(JSON.parse(await readFile(manifest.path, 'utf8')) as ManifestForPreload, `/remotes/${name}/`) };
        } catch (err) {
          this.log.warn({ err, remote: name }, 'a remote manifest could not be read for preloads');
          known = { etag: manifest.etag, pages: [] };
        }
        this.pages.set(name, known);
      }
      pages.push(...known.pages);
    }
    return linkHeader([...documents, ...preloadsFor(pages, path)]);
  }

  /** A file of the shell's build, by request path. */
  async shellFile(path: string): Promise<FoundFile | undefined> {
    return this.found(this.shell, path);
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
