// The remux rule and the watermark estimate on clips of each kind, made with the real ffmpeg (lavfi
// sources, so no fixture files): what plays as it is gets remuxed, bit for bit the same streams with the
// index first; anything else is transcoded, never above the bit-rate cap.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  keyframeSampleArgs,
  probe,
  runTool,
  SAMPLE_SIZE,
  synthesizeClip,
  webReadiness,
  type ProbeResult,
  type SynthesizeClipSpec,
} from '../../src/index.js';
import { binaries, tools, topLevelBoxes } from '../support/media-files.js';

/** A digest of every packet of the first video stream (ffmpeg's framemd5 without decoding). */
async function videoPackets(file: string): Promise<string> {
  const { stdout } = await runTool(
    binaries.ffmpegPath,
    ['-hide_banner', '-loglevel', 'error', '-i', `file:${file}`, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', 'pipe:1'],
    { timeoutMs: 30_000 },
  );
  return stdout.trim();
}

describe('the remux rule and the guide estimate on generated clips', () => {
  let dir: string;
  let seq = 0;
  const clip = async (spec: Omit<SynthesizeClipSpec, 'path'>, extension = 'mp4'): Promise<{ file: string; probe: ProbeResult }> => {
    seq += 1;
    const file = join(dir, `clip-${seq}.${extension}`);
    await synthesizeClip({ ...spec, path: file }, binaries);
    return { file, probe: await probe(file, binaries) };
  };
  const phone = { durationSeconds: 2, width: 720, height: 1280, withAudio: true, fps: 30 } as const;

  beforeAll(async () => {
    await tools.check();
    dir = await mkdtemp(join(tmpdir(), 'clipit-web-ready-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('remuxes a phone-ready H.264 High/AAC MP4 whose index is at the end: the same packets, the index first', async () => {
    const { file, probe: source } = await clip({ ...phone, video: { profile: 'high', level: '4.0', preset: 'veryfast' } });
    expect(source).toMatchObject({ videoCodec: 'h264', videoProfile: 'High', videoLevel: 40, pixelFormat: 'yuv420p', audioCodec: 'aac' });
    expect((await topLevelBoxes(file)).indexOf('moov')).toBeGreaterThan((await topLevelBoxes(file)).indexOf('mdat'));
    expect(webReadiness(source)).toEqual({ playsAsIs: true });

    const out = join(dir, 'remuxed.mp4');
    const remuxed = await tools.remuxForWeb(file, out, { durationSeconds: source.durationSeconds });
    const boxes = await topLevelBoxes(out);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const served = await probe(out, binaries);
    // Its size and rate from the file, without another ffprobe: within 2 % of what ffprobe says.
    expect(remuxed.bytes).toBe((await readFile(out)).length);
    expect(Math.abs(remuxed.bitRate / served.bitRate! - 1)).toBeLessThan(0.02);
    expect(served).toMatchObject({ width: 720, height: 1280, videoCodec: 'h264', videoProfile: 'High', audioCodec: 'aac' });
    expect(Math.abs(served.durationSeconds - source.durationSeconds)).toBeLessThan(0.1);
    expect(await videoPackets(out)).toBe(await videoPackets(file));
  });

  it('remuxes a silent clip, a QuickTime file and a sideways phone recording, keeping its rotation', async () => {
    const silent = await clip({ ...phone, withAudio: false });
    expect(webReadiness(silent.probe)).toEqual({ playsAsIs: true });
    const mov = await clip({ ...phone, container: 'mov' }, 'mov');
    expect(mov.probe.formatName).toContain('mov');
    expect(webReadiness(mov.probe)).toEqual({ playsAsIs: true });
    await tools.remuxForWeb(mov.file, join(dir, 'from-mov.mp4'), { durationSeconds: mov.probe.durationSeconds });
    expect(await probe(join(dir, 'from-mov.mp4'), binaries)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });

    const sideways = await clip({ ...phone, width: 1280, height: 720, rotation: 90 });
    expect(webReadiness(sideways.probe)).toEqual({ playsAsIs: true });
    await tools.remuxForWeb(sideways.file, join(dir, 'sideways.mp4'), { durationSeconds: sideways.probe.durationSeconds });
    expect(await probe(join(dir, 'sideways.mp4'), binaries)).toMatchObject({ width: 720, height: 1280, rotation: 90 });
  });

  it.each<[string, Omit<SynthesizeClipSpec, 'path'>, string, RegExp]>([
    ['4:4:4 H.264', { ...phone, video: { profile: 'high444', pixelFormat: 'yuv444p' } }, 'mp4', /profile High 4:4:4|pixel format yuv444p/],
    ['H.264 at level 5.1', { ...phone, video: { level: '5.1' } }, 'mp4', /level 5\.1, above 4\.2/],
    ['HEVC', { ...phone, durationSeconds: 0.5, width: 360, height: 640, video: { codec: 'hevc' } }, 'mp4', /video codec hevc, not H\.264/],
    [
      'VP9/Opus WebM',
      { ...phone, video: { codec: 'vp9' }, audioCodec: 'opus', container: 'webm' },
      'webm',
      /video codec vp9.*audio codec opus/s,
    ],
    ['H.264 with MP3 sound', { ...phone, audioCodec: 'mp3' }, 'mp4', /audio codec mp3, not AAC/],
    [
      '1440x2560',
      { ...phone, durationSeconds: 0.5, fps: 10, width: 1440, height: 2560, withAudio: false },
      'mp4',
      /1440x2560, larger than 1080x1920/,
    ],
  ])('transcodes %s, saying why', async (_kind, spec, extension, why) => {
    const { probe: source } = await clip(spec, extension);
    const verdict = webReadiness(source);
    expect(verdict.playsAsIs).toBe(false);
    expect(verdict.playsAsIs ? '' : verdict.why.join('; ')).toMatch(why);
  });

  it('transcodes a clip over the bit-rate cap, and the served file stays under it', async () => {
    const cap = 1_500_000;
    const { file, probe: source } = await clip({ ...phone, pattern: 'moving', video: { bitRate: 4_000_000 } });
    expect(source.bitRate!).toBeGreaterThan(cap);
    const verdict = webReadiness(source, cap);
    expect(verdict.playsAsIs ? '' : verdict.why.join('; ')).toMatch(/not under the 1500 kb\/s cap/);
    const served = await tools.transcodeForWeb(file, join(dir, 'capped.mp4'), { maxBitRate: cap });
    expect(served.bitRate!).toBeLessThan(cap);
    expect(served).toMatchObject({ videoCodec: 'h264', pixelFormat: 'yuv420p', videoProfile: 'High' });
    // What a transcode serves would itself play as it is.
    expect(webReadiness(served, cap)).toEqual({ playsAsIs: true });
  });

  describe('the poster, the keyframes and the remux from one ffmpeg', () => {
    const watermarked = { ...phone, durationSeconds: 3, pattern: 'moving', watermark: 'top-right', keyframeSeconds: 0.5 } as const;
    /** What the separate steps make of `file`: the poster's bytes, the keyframe samples, the remux's packets. */
    const apart = async (file: string, durationSeconds: number) => {
      const poster = join(dir, `apart-${seq}.jpg`);
      const remux = join(dir, `apart-${seq}.mp4`);
      await tools.makePoster(file, poster, { durationSeconds });
      const remuxed = await tools.remuxForWeb(file, remux, { durationSeconds });
      const keyframes = await runTool(binaries.ffmpegPath, keyframeSampleArgs(file), { timeoutMs: 30_000 });
      return { poster: await readFile(poster), keyframes: keyframes.stdoutBytes, remux: await readFile(remux), remuxed };
    };

    it('writes the same poster, keyframes and remux as the separate steps, in one process', async () => {
      for (const spec of [watermarked, { ...watermarked, withAudio: false, rotation: 90 } as const]) {
        const { file, probe: source } = await clip(spec);
        const poster = join(dir, `together-${seq}.jpg`);
        const remuxFile = join(dir, `together-${seq}.mp4`);
        const prepared = await tools.prepareForWeb(file, { posterFile: poster, remuxFile, durationSeconds: source.durationSeconds });
        const separately = await apart(file, source.durationSeconds);
        expect(Buffer.compare(await readFile(poster), separately.poster)).toBe(0);
        expect(Buffer.compare(Buffer.from(prepared.keyframes), separately.keyframes)).toBe(0);
        expect(Buffer.compare(await readFile(remuxFile), separately.remux)).toBe(0);
        expect(prepared.remux).toEqual(separately.remuxed);
        // Six keyframes in 3 s: the estimate needs no other ffmpeg, and finds the mark where it is drawn (the
        // sideways recording, turned upright, has it elsewhere).
        expect(prepared.keyframes.length).toBe(6 * SAMPLE_SIZE.width * SAMPLE_SIZE.height);
        expect(await tools.estimateWatermark(file, { keyframes: prepared.keyframes })).toMatchObject({
          verdict: 'rotation' in spec ? 'not-found' : 'found',
          samples: 6,
        });
      }
    });

    it('without a remux, only the poster and the keyframes; with too few keyframes the estimate reads frames apart', async () => {
      const { file, probe: source } = await clip({ ...watermarked, keyframeSeconds: 10 });
      const poster = join(dir, `poster-only-${seq}.jpg`);
      const prepared = await tools.prepareForWeb(file, { posterFile: poster, durationSeconds: source.durationSeconds });
      expect(prepared.remux).toBeUndefined();
      expect(Buffer.compare(await readFile(poster), (await apart(file, source.durationSeconds)).poster)).toBe(0);
      expect(prepared.keyframes.length).toBe(SAMPLE_SIZE.width * SAMPLE_SIZE.height);
      // One keyframe in 3 s: six frames, two a second, read by another ffmpeg.
      expect(await tools.estimateWatermark(file, { keyframes: prepared.keyframes })).toMatchObject({ verdict: 'found', samples: 6 });
    });

    it('leaves nothing behind when it fails', async () => {
      const text = join(dir, 'not-a-video.mp4');
      await writeFile(text, 'not a video');
      const poster = join(dir, 'failed.jpg');
      const remuxFile = join(dir, 'failed.mp4');
      await expect(tools.prepareForWeb(text, { posterFile: poster, remuxFile, durationSeconds: 3 })).rejects.toThrow(/ffmpeg exited/);
      await expect(readFile(poster)).rejects.toThrow(/ENOENT/);
      await expect(readFile(remuxFile)).rejects.toThrow(/ENOENT/);
    });
  });

  describe('the top-right watermark estimate', () => {
    const moving = {
      durationSeconds: 5,
      width: 360,
      height: 640,
      withAudio: false,
      fps: 15,
      pattern: 'moving',
      keyframeSeconds: 1,
    } as const;

    it('finds a still mark in the top-right corner of moving footage, from its keyframes', async () => {
      const { file } = await clip({ ...moving, watermark: 'top-right' });
      expect(await tools.estimateWatermark(file)).toMatchObject({ verdict: 'found', samples: 5 });
    });

    it('finds none without a mark, and none when the mark is top left', async () => {
      expect((await tools.estimateWatermark((await clip(moving)).file)).verdict).toBe('not-found');
      expect((await tools.estimateWatermark((await clip({ ...moving, watermark: 'top-left' })).file)).verdict).toBe('not-found');
    });

    it('reads frames half a second apart when the keyframes are too far apart', async () => {
      const { file } = await clip({ ...moving, keyframeSeconds: 10, watermark: 'top-right' });
      // One keyframe in 5 s: ten frames, two a second.
      expect(await tools.estimateWatermark(file)).toMatchObject({ verdict: 'found', samples: 10 });
    });

    it('is unsure about a picture that barely changes', async () => {
      const { file } = await clip({ ...moving, pattern: 'testsrc', watermark: 'top-right' });
      expect((await tools.estimateWatermark(file)).verdict).toBe('unsure');
    });
  });
});
