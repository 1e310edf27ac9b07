// The shell: the Module Federation host. It owns the page, the router and the frame, and finds the
// remotes at run time (GET /remotes.json), so it declares none here.
import { frontendConfig } from '@clipit/frontend-build';
// The dependency-free entry of the UI kit meant for build configs (see libs/ui/README.md, Theme).
// eslint-disable-next-line no-restricted-imports -- a Node build config cannot load the package's React entry
import { themeBootScript } from '@clipit/ui/theme-boot';
import { rspack } from '@rspack/core';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
// The site's outside links, shared with the page (the header, the home page's Buy $CLIP): the
// dependency-free file of the contracts, for the same reason.
// eslint-disable-next-line no-restricted-imports -- a Node build config cannot load the package's entry (React types, .js specifiers)
import { linksFromEnv, linksMetaContent, LINKS_META_NAME } from '@clipit/frontend-contracts/links';

// The theme boot script as a file of its own, named by its content like every built script (cached for a
// year): the gateway's Content-Security-Policy allows no inline script (docs/adr/0036).
const THEME_BOOT_FILE = `theme-boot.${createHash('sha256').update(themeBootScript).digest('hex').slice(0, 8)}.js`;

/** Writes the theme boot script as THEME_BOOT_FILE. */
class ThemeBootFilePlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ThemeBootFilePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ThemeBootFilePlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(THEME_BOOT_FILE, new rspack.sources.RawSource(themeBootScript));
        },
      );
    });
  }
}

export default (_env, argv) => {
  const config = frontendConfig({ name: 'shell', dir: import.meta.dirname }, argv);
  const production = config.mode === 'production';
  // index.html gets two things at build time: the theme boot script's address, loaded (blocking, it is a
  // few hundred bytes) in <head> so <html> has its theme class before the first paint, and the header's
  // outside links from CLIPIT_LINK_*.
  const html = new rspack.HtmlRspackPlugin({
    template: join(import.meta.dirname, 'src/index.html'),
    scriptLoading: 'defer',
    minify: production,
    templateParameters: {
      themeBootSrc: `/${THEME_BOOT_FILE}`,
      linksMetaName: LINKS_META_NAME,
      linksMetaContent: linksMetaContent(linksFromEnv(process.env)),
    },
  });
  return {
    ...config,
    plugins: [
      ...config.plugins.filter((plugin) => !(plugin instanceof rspack.HtmlRspackPlugin)),
      html,
      new ThemeBootFilePlugin(),
      // Files served as they are, at fixed names from the site root (public/icon.png → /icon.png).
      new rspack.CopyRspackPlugin({ patterns: [{ from: join(import.meta.dirname, 'public') }] }),
    ],
  };
};
