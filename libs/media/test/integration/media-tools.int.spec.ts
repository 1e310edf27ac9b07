// The media functions against the real ffmpeg/ffprobe (Debian's ffmpeg package; FFMPEG_PATH and
// FFPROBE_PATH point elsewhere). Clips are synthesized with lavfi, so no fixture files are needed.
import { readFile, rm, stat, writeFile, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InvalidMediaError,
  makePoster,
  MediaToolError,
  MediaTools,
  probe,
  runTool,
  synthesizeClip,
  transcodeForWeb,
} from '../../src/index.js';
import { binaries, tools, topLevelBoxes } from '../support/media-files.js';

/** Width and height of an image or video as ffprobe sees it, without the video checks of probe(). */
async function pictureSize(file: string): Promise<{ codec: string; width: number; height: number }> {
  const { stdout } = await runTool(binaries.ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_streams', file], {
    timeoutMs: 10_000,
  });
  const s = (JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number }> }).streams[0]!;
  return { codec: s.codec_name, width: s.width, height: s.height };
}

describe('media tools on the real ffmpeg', () => {
  let dir: string;

  beforeAll(async () => {
    await tools.check(); // fails loudly, naming the binary, when ffmpeg is missing
    dir = await mkdtemp(join(tmpdir(), 'clipit-media-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('probes a 10 s 720x1280 clip with sound', async () => {
    const file = join(dir, 'portrait.mp4');
    await synthesizeClip({ path: file, durationSeconds: 10, width: 720, height: 1280, withAudio: true, fps: 15 }, binaries);
    const p = await probe(file, binaries);
    expect(p).toMatchObject({ width: 720, height: 1280, aspectRatio: '9:16', videoCodec: 'h264', audioCodec: 'aac', rotation: 0 });
    expect(p.formatName).toContain('mp4');
    expect(p.durationSeconds).toBeGreaterThanOrEqual(10);
    expect(p.durationSeconds).toBeLessThan(10.2);
  });

  it('probes a 45 s clip as 45 seconds', async () => {
    const file = join(dir, 'long.mp4');
    await synthesizeClip({ path: file, durationSeconds: 45, width: 360, height: 640, withAudio: false, fps: 5 }, binaries);
    const p = await probe(file, binaries);
    expect(Math.floor(p.durationSeconds)).toBe(45);
    expect(p.audioCodec).toBeNull();
  });

  it('reports the displayed size of a clip with rotation metadata', async () => {
    const file = join(dir, 'sideways.mp4');
    await synthesizeClip({ path: file, durationSeconds: 2, width: 640, height: 360, withAudio: false, rotation: 90 }, binaries);
    expect(await probe(file, binaries)).toMatchObject({ width: 360, height: 640, aspectRatio: '9:16', rotation: 90 });
  });

  it('refuses a text file renamed .mp4, an empty file and a JPEG with InvalidMediaError', async () => {
    const text = join(dir, 'notes.mp4');
    await writeFile(text, 'These are not the frames you are looking for.\n'.repeat(200));
    await expect(probe(text, binaries)).rejects.toThrow(InvalidMediaError);

    const empty = join(dir, 'empty.mp4');
    await writeFile(empty, '');
    await expect(probe(empty, binaries)).rejects.toThrow(InvalidMediaError);

    const clip = join(dir, 'for-jpeg.mp4');
    await synthesizeClip({ path: clip, durationSeconds: 1, width: 320, height: 240, withAudio: false }, binaries);
    const jpeg = join(dir, 'still.mp4');
    await makePoster(clip, jpeg, binaries);
    await expect(probe(jpeg, binaries)).rejects.toThrow(/still image/);
  });

  it('says the file does not exist as InvalidMediaError, and a missing ffprobe as MediaToolError', async () => {
    await expect(probe(join(dir, 'nope.mp4'), binaries)).rejects.toThrow(InvalidMediaError);
    const missing = probe(join(dir, 'portrait.mp4'), { ffprobePath: join(dir, 'no-such-ffprobe') });
    await expect(missing).rejects.toThrow(MediaToolError);
    await expect(probe(join(dir, 'portrait.mp4'), { ffprobePath: join(dir, 'no-such-ffprobe') })).rejects.toThrow(/not found/);
  });

  it('checks for readiness at most once per interval, answering the last result between runs', async () => {
    const missing = new MediaTools({ ffmpegPath: join(dir, 'no-such-ffmpeg'), ffprobePath: join(dir, 'no-such-ffprobe') });
    const check = missing.cachedCheck(60_000);
    await expect(check()).rejects.toThrow(/not found/);
    await expect(check()).rejects.toThrow(/not found/);
    const fine = tools.cachedCheck(0);
    await expect(fine()).resolves.toBeUndefined();
  });

  it('turns a 1080x1920 source into a web MP4 (H.264/AAC, long side 1080, faststart) and a JPEG poster', async () => {
    const source = join(dir, 'big.mp4');
    await synthesizeClip({ path: source, durationSeconds: 4, width: 1080, height: 1920, withAudio: true, fps: 15 }, binaries);
    const web = join(dir, 'web.mp4');
    const out = await transcodeForWeb(source, web, { ...binaries, maxLongSide: 1080 });
    expect(out).toMatchObject({ width: 606, height: 1080, videoCodec: 'h264', audioCodec: 'aac' });
    expect(Math.max(out.width, out.height)).toBe(1080);
    expect(out.width % 2).toBe(0);
    expect(out.durationSeconds).toBeGreaterThan(3.9);
    const boxes = await topLevelBoxes(web);
    expect(boxes).toContain('moov');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const { stdout } = await runTool(
      binaries.ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_streams', '-select_streams', 'v', web],
      { timeoutMs: 10_000 },
    );
    expect(JSON.parse(stdout).streams[0]).toMatchObject({ pix_fmt: 'yuv420p', profile: 'High' });

    const poster = join(dir, 'poster.jpg');
    await makePoster(source, poster, { ...binaries, maxLongSide: 1080 });
    const head = (await readFile(poster)).subarray(0, 3);
    expect([...head]).toEqual([0xff, 0xd8, 0xff]);
    expect(await pictureSize(poster)).toEqual({ codec: 'mjpeg', width: 606, height: 1080 });
  });

  it('never upscales, keeps a silent source silent, and turns a rotated source upright', async () => {
    const source = join(dir, 'small-sideways.mp4');
    await synthesizeClip({ path: source, durationSeconds: 2, width: 640, height: 360, withAudio: false, rotation: 90 }, binaries);
    const web = join(dir, 'small-web.mp4');
    const out = await tools.transcodeForWeb(source, web);
    expect(out).toMatchObject({ width: 360, height: 640, audioCodec: null, rotation: 0 });
  });

  it('takes the poster half-way through a clip shorter than two seconds', async () => {
    const source = join(dir, 'short.mp4');
    await synthesizeClip({ path: source, durationSeconds: 0.6, width: 320, height: 240, withAudio: false }, binaries);
    const poster = join(dir, 'short.jpg');
    await tools.makePoster(source, poster);
    expect((await stat(poster)).size).toBeGreaterThan(0);
  });

  it('kills ffmpeg on timeout and on abort, leaving no partial output', async () => {
    const slow = { path: join(dir, 'slow.mp4'), durationSeconds: 600, width: 1920, height: 1080, withAudio: true };
    const timedOut = synthesizeClip(slow, { ...binaries, timeoutMs: 300 });
    await expect(timedOut).rejects.toMatchObject({ name: 'MediaToolError', details: { timedOut: true } });

    const controller = new AbortController();
    const aborted = synthesizeClip(slow, { ...binaries, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(aborted).rejects.toMatchObject({ name: 'MediaToolError', details: { aborted: true } });
    expect((await readdir(dir)).filter((f) => f.startsWith('slow'))).toEqual([]);
  });

  it('keeps the tail of stderr when ffmpeg fails', async () => {
    const err = await runTool(binaries.ffmpegPath, ['-hide_banner', '-i', join(dir, 'nope.mp4'), '-f', 'null', '-'], {
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaToolError);
    expect((err as MediaToolError).details.exitCode).not.toBe(0);
    expect((err as MediaToolError).details.stderrTail).toContain('No such file or directory');
  });
});

describe('synthesizeClip with CLIPIT_SYNTH_CACHE', () => {
  let dir: string;
  const before = process.env['CLIPIT_SYNTH_CACHE'];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-synth-cache-test-'));
    process.env['CLIPIT_SYNTH_CACHE'] = join(dir, 'cache');
  });

  afterAll(async () => {
    if (before === undefined) delete process.env['CLIPIT_SYNTH_CACHE'];
    else process.env['CLIPIT_SYNTH_CACHE'] = before;
    await rm(dir, { recursive: true, force: true });
  });

  it('encodes a spec once and copies it for every later call, a different spec apart', async () => {
    const spec = { durationSeconds: 1, width: 64, height: 112, withAudio: false, fps: 5 };
    await synthesizeClip({ ...spec, path: join(dir, 'first.mp4') });
    const kept = await readdir(join(dir, 'cache'));
    expect(kept).toHaveLength(1);
    expect((await probe(join(dir, 'first.mp4'), binaries)).width).toBe(64);
    // The kept file is what a later call gets: marked, the mark comes back instead of a new encode.
    await writeFile(join(dir, 'cache', kept[0]!), 'kept');
    await synthesizeClip({ ...spec, path: join(dir, 'second.mp4') });
    expect(await readFile(join(dir, 'second.mp4'), 'utf8')).toBe('kept');
    await synthesizeClip({ ...spec, width: 96, path: join(dir, 'wider.mp4') });
    expect(await readdir(join(dir, 'cache'))).toHaveLength(2);
    expect((await probe(join(dir, 'wider.mp4'), binaries)).width).toBe(96);
  });
});

describe('ffmpeg and a worker that dies', () => {
  it('does not outlive the process that started it (SIGKILL)', async () => {
    const { execFileSync, spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/media`], { stdio: 'inherit' });
    const dir = await mkdtemp(join(tmpdir(), 'clipit-orphan-'));
    const output = join(dir, `orphan-${process.pid}.mp4`);
    const child = spawn(process.execPath, [fileURLToPath(new URL('../fixtures/orphan-process.mjs', import.meta.url)), output], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const ffmpegRunning = () => {
      try {
        return execFileSync('pgrep', ['-f', output], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return []; // pgrep exits 1 when nothing matches
      }
    };
    try {
      const deadline = Date.now() + 10_000;
      while (!out.includes('STARTED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(ffmpegRunning().length).toBeGreaterThan(0);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const until = Date.now() + 5000;
      while (ffmpegRunning().length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(ffmpegRunning()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
