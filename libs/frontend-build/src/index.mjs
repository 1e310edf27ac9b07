// The one rspack configuration of the web apps: the shell (Module Federation host) and the remotes
// (public, dashboard, admin). Each app's rspack.config.mjs is a call to `frontendConfig` with what is
// its own (name, exposes, dev port); everything else (TypeScript through rspack's builtin swc loader,
// content-hashed file names, the shared singletons, mf-manifest.json) is decided once, here.
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The apps `npm run build:web` builds, the host first. */
export const FRONTEND_APPS = ['shell', 'public', 'dashboard', 'admin'];

/** Dev server ports (`npm run dev -w @clipit/<app>`); the shell's dev server proxies the rest to them. */
export const DEV_PORTS = { shell: 3000, public: 3001, dashboard: 3002, admin: 3003 };

/** The gateway the shell's dev server proxies /api, /media and /remotes.json to. */
const DEV_GATEWAY_URL = process.env.CLIPIT_DEV_GATEWAY_URL || 'http://127.0.0.1:8080';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const requireFromRoot = createRequire(join(REPO_ROOT, 'package.json'));
const installedVersion = (pkg) => readJson(requireFromRoot.resolve(`${pkg}/package.json`)).version;

/** Third-party packages with state or context that must exist once per page, whoever loads first. */
const SINGLETON_PACKAGES = ['react', 'react-dom', '@tanstack/react-query'];

/**
 * The workspace libraries that run in a browser (`platform:browser` in their nx tags: the UI kit, the
 * web API client, the front-end contracts). They are shared singletons as well, so one remote's Toast
 * context or query policy is the shell's. A library that does not exist yet is simply not listed, and
 * one that an app does not import costs that app nothing: a provided module is only a lazy chunk.
 */
export function browserLibraries() {
  const libs = join(REPO_ROOT, 'libs');
  return readdirSync(libs)
    .map((dir) => join(libs, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => readJson(file))
    .filter((pkg) => pkg.nx?.tags?.includes('platform:browser'));
}

/**
 * Shared packages built with only the exports the apps import. A shared module is otherwise built
 * whole, because the provider cannot know what another app will use: react-query's whole entry is
 * 13.6 KB gzip, the part the site uses 10.8 KB (docs/adr/0023-public-site-loading.md). Every app
 * computes the same list (the union over all apps), so whichever provides has what every consumer needs.
 */
export const TREE_SHAKEN_PACKAGES = ['@tanstack/react-query'];

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.(spec|test)\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Where browser code lives: every app's src and every browser library's src. */
function browserSourceFiles() {
  const frontends = join(REPO_ROOT, 'frontends');
  const apps = readdirSync(frontends, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(frontends, entry.name, 'src'));
  const libs = browserLibraries().map((pkg) => join(REPO_ROOT, 'libs', pkg.name.replace(/^@clipit\//, ''), 'src'));
  return [...apps, ...libs].flatMap(sourceFiles);
}

/**
 * The value names the browser code imports from `pkg` (`import { a, type B } from 'pkg'` gives a).
 * A namespace, default or dynamic import would need the whole package: refused, so the list stays true.
 */
export function importedNames(pkg, files = browserSourceFiles()) {
  const quoted = pkg.replace(/[/@.-]/g, (c) => `\\${c}`);
  const named = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g');
  const other = new RegExp(`(import\\s+[\\w*][^'"]*from\\s*|import\\(\\s*)['"]${quoted}['"]`);
  const names = new Set();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const bare = text.replace(named, '');
    if (other.test(bare))
      throw new Error(`${file} imports ${pkg} other than by name: name the imports, so the shared build can leave the rest out`);
    for (const match of text.matchAll(named)) {
      if (match[1]) continue;
      for (const part of match[2].split(',')) {
        const spec = part.trim();
        if (!spec || spec.startsWith('type ')) continue;
        names.add(spec.split(/\s+as\s+/)[0].trim());
      }
    }
  }
  return [...names].sort();
}

/**
 * The `shared` option of every app: the same packages and versions everywhere. The shell (the host)
 * shares them `eager`: they are bundled into its entry and provided from there, so its first render
 * waits for one file instead of the entry, then a chunk per package one round trip later (docs/adr/0023);
 * a remote takes them from the shell and keeps its own copies only as fallbacks. (Eager and runtime tree
 * shaking exclude each other, so the shell carries all of @tanstack/react-query.)
 */
export function sharedModules({ eager = false } = {}) {
  const shared = {};
  for (const name of SINGLETON_PACKAGES) {
    const version = installedVersion(name);
    shared[name] = { singleton: true, eager, version, requiredVersion: `^${version.split('.')[0]}.0.0` };
    if (TREE_SHAKEN_PACKAGES.includes(name) && !eager)
      shared[name].treeShaking = { mode: 'runtime-infer', usedExports: importedNames(name) };
  }
  for (const pkg of browserLibraries()) {
    shared[pkg.name] = { singleton: true, eager, version: pkg.version, requiredVersion: `^${pkg.version}` };
  }
  return shared;
}

/**
 * Which build this is, readable at run time as `__CLIPIT_BUILD_ID__` (a remote's `./version`, which the shell
 * publishes on the page): the app's own version (its package.json, the one a team bumps to ship it), then
 * what the deploy sets in CLIPIT_BUILD_ID (a commit, a pipeline run), else the time of a local build:
 * `0.3.0+4f2a9c1`, `0.3.0+20261123T101500Z`.
 */
export function buildId(dir, env = process.env, now = new Date()) {
  const { version } = readJson(join(dir, 'package.json'));
  return `${version}+${env.CLIPIT_BUILD_ID || now.toISOString().replace(/[-:]|\.\d+/g, '')}`;
}

/**
 * The files of the chunks a dynamic import `request` (as written in `fromFile`) loads: the screen's own
 * chunk, the chunks split off beside it and their CSS, as paths relative to the build folder.
 */
function filesOfImport(statsJson, fromFile, request) {
  const files = new Set();
  for (const chunk of statsJson.chunks ?? []) {
    if (chunk.initial) continue;
    const fromHere = (chunk.origins ?? []).some((o) => o.request === request && (o.moduleName ?? '').endsWith(fromFile));
    if (fromHere) for (const file of chunk.files ?? []) if (/\.(js|css)$/.test(file)) files.add(file);
  }
  return [...files].sort();
}

/** The module a route's `lazy` imports: `() => import('../screens/feed-page.js')` gives '../screens/feed-page.js'. */
const lazyRequest = (lazy) => /import\(\s*(?:\/\*[^]*?\*\/\s*)?['"]([^'"]+)['"]\s*\)/.exec(String(lazy))?.[1];

/**
 * Lists the remote's pages (path, title, description of each route in its `./routes`) in mf-manifest.json
 * under `metaData.clipit.pages` (read by `pagesOfManifest` of @clipit/frontend-contracts), so the shell
 * knows which remote owns a path before loading any, with each page's screen files (`assets`), so the
 * gateway can have the browser fetch them with the page (docs/adr/0023). The routes module is imported as
 * it is (Node strips its types; it imports nothing at load: each screen is behind `lazy`), so it stays the
 * one list.
 */
async function withPages(stats, compilation, dir, exposes) {
  const routesFile = exposes['./routes'].replace(/^\.\//, '');
  const { routes } = await import(`${pathToFileURL(join(dir, routesFile)).href}?at=${Date.now()}`);
  const statsJson = compilation.getStats().toJson({ all: false, chunks: true, chunkOrigins: true });
  stats.metaData.clipit = {
    pages: routes.map(({ path, title, description, reads = [], lazy }) => {
      const request = lazyRequest(lazy);
      return {
        path,
        title,
        description,
        reads,
        assets: request ? filesOfImport(statsJson, routesFile.replace(/^src\//, ''), request) : [],
      };
    }),
  };
  return stats;
}

/** Where the shell's build lists the files its first render loads (read by the gateway to preload them). */
export const STARTUP_FILE = 'startup.json';

/**
 * The shell's files its first render loads, entry first, from the build's chunk origins: the entry, the
 * chunks of its own imports (the bootstrap behind the federation's async boundary) and the chunks that
 * provide the shared packages it consumes (the host provides every shared package and uses its own
 * copy, so a consume fallback chunk never loads, and a package only provided is left for a remote to ask).
 */
export function startupFiles(statsJson) {
  const consumed = new Set();
  const sharedName = (moduleName, kind) =>
    new RegExp(`^${kind} shared module \\([^)]*\\) ((?:@[^/\\s]+/)?[^@\\s]+)@`).exec(moduleName ?? '')?.[1];
  for (const chunk of statsJson.chunks ?? [])
    for (const origin of chunk.origins ?? []) {
      const name = sharedName(origin.moduleName, 'consume');
      if (name) consumed.add(name);
    }
  const loadsFirst = (chunk) =>
    chunk.initial ||
    (chunk.origins ?? []).some((origin) => {
      if (sharedName(origin.moduleName, 'consume')) return false;
      const provided = sharedName(origin.moduleName, 'provide');
      return provided ? consumed.has(provided) : true;
    });
  const files = (statsJson.chunks ?? [])
    .filter(loadsFirst)
    .flatMap((chunk) => (chunk.files ?? []).filter((file) => /\.(js|css)$/.test(file)));
  const entry = files.filter((file) => (statsJson.chunks ?? []).some((chunk) => chunk.initial && chunk.files?.includes(file)));
  return [...new Set([...entry, ...files.sort()])];
}

/** Writes startupFiles() as `startup.json` ({ files }) beside the shell's index.html. */
class StartupFilesPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('clipit-startup-files', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'clipit-startup-files', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const statsJson = compilation.getStats().toJson({ all: false, chunks: true, chunkOrigins: true });
        compilation.emitAsset(
          STARTUP_FILE,
          new rspack.sources.RawSource(`${JSON.stringify({ files: startupFiles(statsJson) }, null, 2)}\n`),
        );
      });
    });
  }
}

/**
 * @param {object} options
 * @param {string} options.name             the app: 'shell' or a remote's name (also its container name)
 * @param {string} options.dir              the app's folder (import.meta.dirname of its rspack.config.mjs)
 * @param {Record<string,string>} [options.exposes]  a remote's exposed modules (expose key → source file)
 * @param {{ mode?: string }} [argv]        what rspack's CLI passes to a config function
 */
export function frontendConfig({ name, dir, exposes }, argv = {}) {
  const isHost = exposes === undefined;
  const production = (argv.mode ?? process.env.NODE_ENV ?? 'production') === 'production';
  const hashed = production ? '.[contenthash:8]' : '';

  return {
    name,
    context: dir,
    mode: production ? 'production' : 'development',
    // A remote has no page of its own: its entry is the container (remoteEntry.js) the plugin adds.
    entry: isHost ? { main: './src/index.tsx' } : {},
    target: ['web', 'es2022'],
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: join(dir, 'dist'),
      // Content-hashed names are cached for a year by the gateway; only the HTML, remoteEntry.js and
      // mf-manifest.json keep fixed names (and are never cached without revalidation).
      filename: `js/[name]${hashed}.js`,
      chunkFilename: `js/[name]${hashed}.js`,
      cssFilename: `css/[name]${hashed}.css`,
      cssChunkFilename: `css/[name]${hashed}.css`,
      assetModuleFilename: `assets/[name]${hashed}[ext]`,
      // The shell is served from the site root; a remote finds its chunks next to its remoteEntry.js,
      // wherever this environment serves it from (/remotes/<name>/ on the gateway, or a CDN).
      publicPath: isHost ? '/' : 'auto',
      uniqueName: `clipit_${name}`,
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.jsx', '.js'],
      // Sources import each other with the .js suffix TypeScript's node resolution wants.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !production } },
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css/auto' },
        { test: /\.(png|jpe?g|gif|webp|avif|svg|woff2?)$/, type: 'asset' },
        // Videos are never inlined: the gateway serves them in byte ranges, cached for good under their hash.
        { test: /\.(mp4|webm)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new rspack.DefinePlugin({ __CLIPIT_BUILD_ID__: JSON.stringify(buildId(dir)) }),
      new ModuleFederationPlugin({
        // The container's global name: clipit_<app> (see containerName in @clipit/frontend-contracts).
        name: `clipit_${name.replace(/-/g, '_')}`,
        ...(isHost ? {} : { filename: 'remoteEntry.js', exposes }),
        // No remotes here: the shell registers them at run time from GET /remotes.json.
        remotes: {},
        shared: sharedModules({ eager: isHost }),
        manifest: isHost
          ? false
          : { fileName: 'mf-manifest.json', additionalData: ({ stats, compilation }) => withPages(stats, compilation, dir, exposes) },
        // Remote types: each remote's exposes are typed by @clipit/frontend-contracts (see docs/adr/0010).
        dts: false,
        // One federation runtime per page: the shell provides it and the remotes use it, instead of each
        // remoteEntry.js carrying its own copy (about 32 KB gzip each). Browser-only code paths, and in the
        // remotes no remote loading or manifest snapshots (only the shell loads remotes): 2 KB less each.
        experiments: isHost
          ? { provideExternalRuntime: true, optimization: { target: 'web' } }
          : { externalRuntime: true, optimization: { target: 'web', disableRemote: true, disableSnapshot: true } },
      }),
      ...(isHost
        ? [
            new rspack.HtmlRspackPlugin({
              template: join(dir, 'src/index.html'),
              scriptLoading: 'defer',
              minify: production,
            }),
            new StartupFilesPlugin(),
          ]
        : []),
    ],
    optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
    performance: { hints: false },
    // publicPath 'auto' is the point: a remote's chunks are found next to wherever its remoteEntry.js is served.
    ignoreWarnings: [/Manifest will use absolute path resolution via its host at runtime/],
    stats: 'errors-warnings',
    devServer: isHost ? hostDevServer() : remoteDevServer(name),
  };
}

/** The shell in development: same-origin like production, the remotes and the API behind proxies. */
function hostDevServer() {
  const remotes = Object.entries(DEV_PORTS).filter(([app]) => app !== 'shell');
  return {
    port: DEV_PORTS.shell,
    historyApiFallback: true,
    proxy: [
      { context: ['/api', '/media', '/remotes.json'], target: DEV_GATEWAY_URL, changeOrigin: false },
      ...remotes.map(([app, port]) => ({
        context: [`/remotes/${app}`],
        target: `http://127.0.0.1:${port}`,
        pathRewrite: { [`^/remotes/${app}`]: '' },
      })),
    ],
  };
}

/** A remote in development: its own server, reached through the shell's proxy; reloads the page on a change. */
function remoteDevServer(name) {
  return {
    port: DEV_PORTS[name],
    hot: false,
    liveReload: true,
    headers: { 'Access-Control-Allow-Origin': '*' },
    client: { webSocketURL: `ws://localhost:${DEV_PORTS[name]}/ws` },
  };
}
export { COMPRESSIBLE, compressText, precompressFolder } from './precompress.mjs';
