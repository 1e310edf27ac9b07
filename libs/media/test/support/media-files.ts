// What the integration tests of libs/media share: the tools bound to the machine's ffmpeg/ffprobe
// (FFMPEG_PATH and FFPROBE_PATH point elsewhere), and a look at an MP4's top-level boxes.
import { readFile } from 'node:fs/promises';
import { MediaTools } from '../../src/index.js';

export const tools = new MediaTools({
  ffmpegPath: process.env['FFMPEG_PATH'] ?? 'ffmpeg',
  ffprobePath: process.env['FFPROBE_PATH'] ?? 'ffprobe',
});
export const binaries = { ffmpegPath: tools.options.ffmpegPath, ffprobePath: tools.options.ffprobePath };

/** Top-level MP4 box types in file order (size, type; 64-bit sizes handled). */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const buf = await readFile(file);
  const types: string[] = [];
  let offset = 0;
  while (offset + 8 <= buf.length) {
    let size = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(buf.readBigUInt64BE(offset + 8));
    else if (size === 0) size = buf.length - offset;
    types.push(type);
    if (size < 8) break;
    offset += size;
  }
  return types;
}
