// Re-upload fingerprints against the real ffmpeg, on clips generated with lavfi (test/support/scene-clips.ts):
// every kind of copy a re-uploader makes is recognised, unrelated clips are not taken for copies, and the
// files that cannot be fingerprinted say so. Small clips (360x640 for the originals and their copies, 144x256
// for the unrelated ones) keep the whole file to about half a minute on 2 cores.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compareFingerprints,
  fingerprintClip,
  indexKeys,
  InvalidMediaError,
  isReupload,
  MIN_SHARED_KEYS,
  parseFingerprint,
  probeKeys,
  runTool,
  sharedKeys,
  type ClipFingerprint,
} from '../../src/index.js';
import { binaries } from '../support/media-files.js';
import {
  sceneClipArgs,
  sceneClipBatchArgs,
  TRANSFORMS,
  transformArgs,
  type SceneClipSpec,
  type Transform,
} from '../support/scene-clips.js';

/** Runs `work` over `items`, `width` at a time: the machine has two cores. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

const ffmpeg = (args: string[]) => runTool(binaries.ffmpegPath, args, { timeoutMs: 120_000 });
const fingerprint = (file: string) => fingerprintClip(file, { ffmpegPath: binaries.ffmpegPath });
/** The keys a store's lookup for `probe` shares with `stored`'s index entries. */
const shared = (stored: ClipFingerprint, probe: ClipFingerprint) => sharedKeys(probeKeys(probe), indexKeys(stored));

const ORIGINALS: SceneClipSpec[] = [
  { seed: 101, width: 360, height: 640, durationSeconds: 10 },
  { seed: 202, width: 360, height: 640, durationSeconds: 10 },
];
const UNRELATED = 24;

describe('re-upload fingerprints on the real ffmpeg', () => {
  let dir: string;
  const originals: ClipFingerprint[] = [];
  const copies = new Map<Transform, ClipFingerprint[]>();
  const unrelated: ClipFingerprint[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-fingerprint-'));
    const original = (i: number) => join(dir, `original-${i}.mp4`);
    const copy = (i: number, kind: Transform) => join(dir, `original-${i}-${kind}.mp4`);
    // The unrelated clips, 8 to an ffmpeg (its start-up would cost more than such small clips), beside the originals.
    const batches = Array.from({ length: UNRELATED / 8 }, (_, b) =>
      Array.from({ length: 8 }, (_, i) => ({
        spec: { seed: 7000 + b * 8 + i, width: 144, height: 256, durationSeconds: 6 + (i % 3), fps: 12 },
        output: join(dir, `unrelated-${b * 8 + i}.mp4`),
      })),
    );
    await inParallel(
      [...ORIGINALS.map((spec, i) => sceneClipArgs(spec, original(i))), ...batches.map(sceneClipBatchArgs)],
      2,
      async (args) => {
        await ffmpeg(args);
      },
    );
    const jobs = ORIGINALS.flatMap((spec, i) => TRANSFORMS.map((kind) => ({ i, kind, spec })));
    await inParallel(jobs, 2, async ({ i, kind, spec }) => {
      await ffmpeg(transformArgs(kind, original(i), copy(i, kind), spec));
    });
    await inParallel(
      [
        ...ORIGINALS.map((_, i) => async () => void (originals[i] = await fingerprint(original(i)))),
        ...jobs.map(({ i, kind }) => async () => {
          const list = copies.get(kind) ?? [];
          copies.set(kind, list);
          list[i] = await fingerprint(copy(i, kind));
        }),
        ...batches.flat().map((clip, n) => async () => void (unrelated[n] = await fingerprint(clip.output))),
      ],
      2,
      (job) => job(),
    );
  }, 180_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fingerprints a clip: three hashes per sampled frame, and its sound', () => {
    for (const fp of originals) {
      expect(fp.version).toBe(1);
      // 10 s sampled every 2/3 s, three views each, less the plain frames (a smooth gradient scene, say).
      expect(fp.frames.length % 3).toBe(0);
      expect(fp.frames.length).toBeGreaterThanOrEqual(5 * 3);
      expect(fp.frames.length).toBeLessThanOrEqual(16 * 3);
      expect(fp.frames.every((h) => /^[0-9a-f]{16}$/.test(h))).toBe(true);
      expect(fp.audio).not.toBeNull();
      expect(parseFingerprint(JSON.parse(JSON.stringify(fp)))).toEqual(fp);
    }
  });

  it.each(TRANSFORMS)('recognises a copy %s as a re-upload of its original, pictures and sound', (kind) => {
    ORIGINALS.forEach((_, i) => {
      const copy = copies.get(kind)![i]!;
      const comparison = compareFingerprints(originals[i]!, copy);
      expect({ kind, i, ...comparison }).toMatchObject({ kind, i, videoMatches: true, audioMatches: true });
      expect(isReupload(comparison)).toBe(true);
      expect(isReupload(compareFingerprints(copy, originals[i]!))).toBe(true);
      // The index finds it: a candidate shares enough keys to be compared in full.
      expect(shared(originals[i]!, copy)).toBeGreaterThanOrEqual(MIN_SHARED_KEYS);
    });
  });

  it('takes no two unrelated clips for copies of each other', () => {
    const clips = [...originals, ...unrelated];
    const matches: string[] = [];
    for (let a = 0; a < clips.length; a += 1)
      for (let b = a + 1; b < clips.length; b += 1) {
        const c = compareFingerprints(clips[a]!, clips[b]!);
        if (c.videoMatches || isReupload(c)) matches.push(`${a}~${b}: ${JSON.stringify(c)}`);
      }
    expect(matches).toEqual([]);
  });

  it('fingerprints a clip without sound with audio null, the same when told it is silent (one ffmpeg run)', async () => {
    const file = join(dir, 'silent.mp4');
    await ffmpeg(sceneClipArgs({ seed: 303, width: 180, height: 320, durationSeconds: 6, withAudio: false }, file));
    const fp = await fingerprint(file);
    expect(fp.audio).toBeNull();
    expect(fp.frames.length).toBeGreaterThan(0);
    expect(await fingerprintClip(file, { ffmpegPath: binaries.ffmpegPath, hasAudio: false })).toEqual(fp);
  });

  it('prints only the pictures of a clip with sound when told it has none', async () => {
    const told = await fingerprintClip(join(dir, 'original-0.mp4'), { ffmpegPath: binaries.ffmpegPath, hasAudio: false });
    expect(told).toEqual({ ...originals[0]!, audio: null });
  });

  it('refuses a file that is not a video (text, or sound alone) with InvalidMediaError', async () => {
    const text = join(dir, 'notes.mp4');
    await writeFile(text, 'Not a clip at all.\n'.repeat(100));
    await expect(fingerprint(text)).rejects.toThrow(InvalidMediaError);
    const song = join(dir, 'song.m4a');
    await ffmpeg([
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=3',
      '-c:a',
      'aac',
      `file:${song}`,
    ]);
    await expect(fingerprint(song)).rejects.toThrow(/no video stream/);
    await expect(fingerprint(join(dir, 'missing.mp4'))).rejects.toThrow(InvalidMediaError);
  });
});
