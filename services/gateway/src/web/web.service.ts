import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { LOGGER } from '@clipit/service-kit';
import { remotesDocument, REMOTE_NAMES } from './remotes-config.js';
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
