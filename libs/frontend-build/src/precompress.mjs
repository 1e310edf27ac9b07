// Precompression of a built web app: every text asset gets a brotli (.br) and a gzip (.gz) sibling,
// made once at build time at the highest levels, which the gateway sends to browsers that accept them
// (Content-Encoding, Vary: Accept-Encoding). Compressing at build costs nothing per request and lets
// brotli use its slowest, smallest setting.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing, by name (the precompressed siblings themselves excluded). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|map|svg|txt|webmanifest)$/i;

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield path;
  }
}

/**
 * The brotli and gzip bytes of `data` (text: brotli's text mode at `quality`, 11 by default; gzip level 9).
 * Source maps, fetched only by developer tools, take quality 5: a tenth of the time, a little larger.
 */
export async function compressText(data, { quality = constants.BROTLI_MAX_QUALITY } = {}) {
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: 9 }),
  ]);
  return { br, gzip: gzipped };
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every text asset under `dir` (a sibling only when it is
 * smaller than the file). Answers the totals: files, their bytes, and the bytes of each encoding (the
 * file's own size where no sibling was written).
 */
export async function precompressFolder(dir, { concurrency = 4 } = {}) {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const queue = [];
  for await (const path of filesUnder(dir)) queue.push(path);
  async function worker() {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const data = await readFile(path);
      const { br, gzip: gzipped } = await compressText(data, path.endsWith('.map') ? { quality: 5 } : {});
      totals.files += 1;
      totals.bytes += data.length;
      for (const [suffix, bytes, key] of [
        ['.br', br, 'br'],
        ['.gz', gzipped, 'gzip'],
      ]) {
        if (bytes.length < data.length) {
          await writeFile(`${path}${suffix}`, bytes);
          totals[key] += bytes.length;
        } else {
          totals[key] += data.length;
        }
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return totals;
}
