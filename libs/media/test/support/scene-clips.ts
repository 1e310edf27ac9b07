// Test clips that look like clips: a few "scenes" of a few seconds each, cut together, every one drawn by an
// ffmpeg lavfi source with parameters from a seeded random generator (a zooming Mandelbrot at a random place,
// a scrolling cellular automaton, boxes moving over drifting gradients, plasma), over a melody
// of random notes with some filtered noise. Fingerprints need this: a test card or a still pattern gives
// degenerate hashes (every frame alike), and two clips from one deterministic source would really be copies.
// And the copies a re-uploader makes of a clip (TRANSFORMS).
//
// Pure argument builders (no imports, only erasable TypeScript), so that both the integration tests (through
// runTool from src) and scripts/bench/fingerprint.mjs (through runTool from the built library, loading this file
// with Node's type stripping) run the same ffmpeg commands.

export interface SceneClipSpec {
  /** Everything random about the clip follows from it: the same seed gives the same clip. */
  seed: number;
  durationSeconds: number;
  width: number;
  height: number;
  /** Frames per second (default 25). */
  fps?: number;
  /** A soundtrack (default true). */
  withAudio?: boolean;
}

/** What a transformation needs to know of its original. */
export interface ClipShape {
  width: number;
  height: number;
  durationSeconds: number;
}

/** A small, fast, seedable generator (mulberry32): the same seed gives the same clip on every machine. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const between = (rnd: Random, lo: number, hi: number) => lo + (hi - lo) * rnd();
const int = (rnd: Random, lo: number, hi: number) => Math.floor(between(rnd, lo, hi + 1));
const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const hex = (rnd: Random) =>
  `0x${Math.floor(rnd() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
const num = (x: number) => x.toFixed(4);

/** Places on the edge of the Mandelbrot set where zooming in keeps finding structure. */
const MANDELBROT_SPOTS = [
  [-0.743644, -0.131826],
  [-0.7453, 0.1127],
  [-1.25066, 0.02012],
  [-0.16, 1.0405],
  [0.285, 0.01],
  [-0.722, 0.246],
  [-1.768, 0.001],
  [0.2549, 0.0005],
  [-0.1011, 0.9563],
  [-1.4002, 0.0],
] as const;

/** Elementary cellular automaton rules that draw something other than a blank or a stripe. */
const CELLAUTO_RULES = [18, 22, 30, 45, 57, 73, 90, 105, 110, 126, 150, 182];

interface Scene {
  /** Filtergraph text ending in a labelled pad; sources may be several chains. */
  graph: (label: string) => string;
}

/** One scene's picture: `seconds` long, `w`x`h`, `fps`, yuv420p, square pixels. */
function scene(rnd: Random, w: number, h: number, fps: number, seconds: number): Scene {
  const d = seconds.toFixed(3);
  const size = `s=${w}x${h}:r=${fps}`;
  // Grain, as a camera's sensor adds: no filmed picture is smooth to the pixel.
  const tail = `trim=duration=${d},setpts=PTS-STARTPTS,format=yuv420p,noise=alls=${int(rnd, 2, 5)}:allf=t:all_seed=${int(rnd, 0, 2 ** 30)},setsar=1`;
  // No scene of gradients alone: a smooth gradient is a plain picture (no clip is one for seconds on end), which
  // the fingerprint leaves out; they are the background of the shapes.
  const kind = pick(rnd, ['mandelbrot', 'cellauto', 'shapes', 'plasma'] as const);
  switch (kind) {
    case 'mandelbrot': {
      // A random stretch of the set's edge near a known spot (within half a view of it, so the edge stays in the
      // picture), at a random scale, with a random colouring; a third of the time morphed (mandelbrot's
      // `morphamp`), which draws Julia-like shapes of its own. It zooms in by at most 1.7x over the scene, as a
      // camera might.
      const [x, y] = pick(rnd, MANDELBROT_SPOTS);
      const scale = Math.exp(between(rnd, Math.log(0.002), Math.log(0.6)));
      const jitter = scale * 0.5;
      // The morph's amplitude in units of the view: more, and the picture turns over every few frames, faster than a
      // sped-up copy's samples can follow (README, "Re-upload fingerprints").
      const morph =
        rnd() < 0.33 ? `:morphamp=${(scale * between(rnd, 0.1, 0.5)).toPrecision(4)}:morphxf=${num(between(rnd, 0.002, 0.01))}` : '';
      return {
        graph: (out) =>
          `mandelbrot=${size}:maxiter=${int(rnd, 60, 300)}:outer=${pick(rnd, [0, 1, 3])}:inner=${pick(rnd, [0, 1, 2, 3])}${morph}` +
          `:start_x=${num(x + between(rnd, -jitter, jitter))}:start_y=${num(y + between(rnd, -jitter, jitter))}` +
          `:start_scale=${scale.toPrecision(4)}:end_scale=${(scale * between(rnd, 0.6, 0.9)).toPrecision(4)}:end_pts=${Math.round(seconds * fps)}` +
          `,hue=h=${int(rnd, 0, 359)}:s=${num(between(rnd, 0.6, 1.8))},${tail}[${out}]`,
      };
    }
    case 'cellauto': {
      const cell = int(rnd, 3, 8);
      return {
        graph: (out) =>
          `cellauto=s=${Math.ceil(w / cell)}x${Math.ceil(h / cell)}:r=${int(rnd, 2, 6)}:rule=${pick(rnd, CELLAUTO_RULES)}:seed=${int(rnd, 0, 2 ** 31)}` +
          `:ratio=${num(between(rnd, 0.2, 0.7))}:full=1,scale=${w}:${h}:flags=neighbor,fps=${fps},format=rgb24` +
          `,colorchannelmixer=rr=${num(rnd())}:gg=${num(rnd())}:bb=${num(rnd())},gblur=sigma=${num(between(rnd, 0.5, 3))},${tail}[${out}]`,
      };
    }
    case 'shapes': {
      // Coloured boxes gliding over a drifting gradient, like objects moving in a shot.
      const boxes = int(rnd, 3, 6);
      // Every colour and end point named: ffmpeg 5.1's gradients takes a "random" colour from the system's random
      // source whatever its seed, so a clip would differ from run to run.
      const colours = int(rnd, 2, 5);
      const background =
        `gradients=${size}:seed=${int(rnd, 0, 2 ** 31)}:n=${colours}:speed=${num(between(rnd, 0.005, 0.02))}:type=${int(rnd, 0, 3)}` +
        Array.from({ length: colours }, (_, c) => `:c${c}=${hex(rnd)}`).join('') +
        `:x0=${int(rnd, 0, w)}:y0=${int(rnd, 0, h)}:x1=${int(rnd, 0, w)}:y1=${int(rnd, 0, h)}`;
      const parts = [`${background}[bg0]`];
      for (let i = 0; i < boxes; i += 1) {
        const bw = Math.round(w * between(rnd, 0.1, 0.4));
        const bh = Math.round(h * between(rnd, 0.06, 0.25));
        parts.push(`color=c=${hex(rnd)}:s=${bw}x${bh}:r=${fps}[box${i}]`);
        const x = `(W-w)*(0.5+0.45*sin(t*${num(between(rnd, 0.2, 0.8))}+${num(between(rnd, 0, 6.28))}))`;
        const y = `(H-h)*(0.5+0.45*sin(t*${num(between(rnd, 0.2, 0.8))}+${num(between(rnd, 0, 6.28))}))`;
        parts.push(`[bg${i}][box${i}]overlay=x='${x}':y='${y}':shortest=1:eval=frame[bg${i + 1}]`);
      }
      return {
        graph: (out) => `${parts.join(';')};[bg${boxes}]${tail}[${out}]`.replaceAll('[bg', `[${out}bg`).replaceAll('[box', `[${out}box`),
      };
    }
    case 'plasma': {
      // Waves of random kinds (plane waves at any angle, rings round a random centre), sizes and speeds: two to
      // four, a ring, and the product of two more. One plane wave alone would be a test pattern: every clip that
      // drew one at the same angle would show the same picture. Drawn at a quarter of the size and scaled up: geq
      // evaluates its formulas for every pixel, and the waves are smooth anyway.
      const [rw, rh] = [Math.ceil(w / 4), Math.ceil(h / 4)];
      const ring = () =>
        `sin(hypot(X-${int(rnd, 0, rw)},Y-${int(rnd, 0, rh)})/${num(between(rnd, rw / 40, rw / 5))}-T*${num(between(rnd, -1.2, 1.2))})`;
      const wave = () => {
        if (rnd() < 0.35) return ring();
        const angle = between(rnd, 0, Math.PI);
        return `sin((X*${num(Math.cos(angle))}+Y*${num(Math.sin(angle))})/${num(between(rnd, rw / 40, rw / 5))}+T*${num(between(rnd, -1.2, 1.2))})`;
      };
      const terms = Array.from({ length: int(rnd, 2, 4) }, () => `${num(between(rnd, 15, 45))}*${wave()}`);
      terms.push(`${num(between(rnd, 20, 45))}*${ring()}`, `${num(between(rnd, 20, 45))}*${wave()}*${wave()}`);
      return {
        graph: (out) =>
          `nullsrc=s=${rw}x${rh}:r=${fps},geq=lum='clip(128+${terms.join('+')},0,255)':cb='128+60*${wave()}':cr='128+60*${wave()}'` +
          `,scale=${w}:${h}:flags=bicubic,${tail}[${out}]`,
      };
    }
  }
}

/**
 * The soundtrack: a melody of random notes (a pitch every `beat`, from a quadratic hash of the note's index, so
 * no two seeds sing the same tune), a bass line at half the speed, and pink noise through a random band.
 */
function soundtrack(rnd: Random, seconds: number): string {
  const d = seconds.toFixed(3);
  const beat = num(between(rnd, 0.18, 0.45));
  const [k1, k2, k3, k4] = [int(rnd, 1, 97), int(rnd, 1, 97), int(rnd, 0, 200), int(rnd, 1, 97)];
  const base = num(between(rnd, 180, 330));
  const note = `floor(t/${beat})`;
  const melody = `${base}*pow(2,mod(${note}*${note}*${k1}+${note}*${k2}+${k3},19)/12)`;
  const bass = `${base}/4*pow(2,mod(floor(t/${beat}/2)*${k4}+${k3},12)/12)`;
  const env = `exp(-4*mod(t,${beat})/${beat})`;
  const expr = `0.45*${env}*(sin(2*PI*${melody}*t)+0.35*sin(4*PI*${melody}*t))+0.25*sin(2*PI*${bass}*t)`;
  const band = int(rnd, 300, 3000);
  return (
    `aevalsrc=exprs='${expr}':s=22050:d=${d}[tone];` +
    `anoisesrc=c=pink:a=${num(between(rnd, 0.02, 0.12))}:r=22050:d=${d}:seed=${int(rnd, 0, 2 ** 31)},bandpass=f=${band}:width_type=q:w=1[noise];` +
    `[tone][noise]amix=inputs=2:normalize=0,aresample=44100,asetnsamples=n=1024:p=0[aout]`
  );
}

/** The filtergraph of a scene clip: its picture on [vout], its sound on [aout] when it has one. */
export function sceneClipGraph(spec: SceneClipSpec): string {
  const rnd = randomSource(spec.seed);
  const fps = spec.fps ?? 25;
  const scenes: string[] = [];
  let left = spec.durationSeconds;
  while (left > 0.05) {
    const seconds = left < 4.5 ? left : Math.min(left, between(rnd, 2, 4));
    scenes.push(scene(rnd, spec.width, spec.height, fps, seconds).graph(`s${scenes.length}`));
    left -= seconds;
  }
  const cut = `${scenes.map((_, i) => `[s${i}]`).join('')}concat=n=${scenes.length}:v=1:a=0[vout]`;
  const video = [...scenes, cut].join(';');
  return spec.withAudio === false ? video : `${video};${soundtrack(rnd, spec.durationSeconds)}`;
}

const ENCODE = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p'];
const ENCODE_AUDIO = ['-c:a', 'aac', '-b:a', '96k'];

/** ffmpeg's quiet, overwriting start of every command here. */
const HEAD = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** ffmpeg arguments that write one scene clip (H.264 + AAC in MP4). */
export function sceneClipArgs(spec: SceneClipSpec, output: string): string[] {
  return sceneClipBatchArgs([{ spec, output }]);
}

function sceneClipOutput(spec: SceneClipSpec, output: string, prefix: string): string[] {
  return [
    '-map',
    `[${prefix}vout]`,
    ...(spec.withAudio === false ? [] : ['-map', `[${prefix}aout]`, ...ENCODE_AUDIO]),
    ...ENCODE,
    '-t',
    spec.durationSeconds.toFixed(3),
    '-f',
    'mp4',
    `file:${output}`,
  ];
}

/**
 * ffmpeg arguments that write several scene clips in one run (one filtergraph, one output per clip): for a
 * benchmark that needs hundreds of small clips, a process per clip would spend more on ffmpeg's start-up
 * than on the clips.
 */
export function sceneClipBatchArgs(clips: ReadonlyArray<{ spec: SceneClipSpec; output: string }>): string[] {
  const graphs = clips.map(({ spec }, i) => sceneClipGraph(spec).replace(/\[([a-z][a-z0-9]*)\]/g, (_, label: string) => `[c${i}${label}]`));
  return [...HEAD, '-filter_complex', graphs.join(';'), ...clips.flatMap(({ spec, output }, i) => sceneClipOutput(spec, output, `c${i}`))];
}

/** The copies of a clip a re-upload check must recognise (and `pillarboxed`, a harder kind of box). */
export const TRANSFORMS = ['reencoded', 'downscaled', 'cropped', 'trimmed', 'sped-up', 'mirrored', 'letterboxed', 'pillarboxed'] as const;
export type Transform = (typeof TRANSFORMS)[number];

/** What each copy is, for reports. */
export const TRANSFORM_LABELS: Record<Transform, string> = {
  reencoded: 're-encoded (CRF 30, AAC 64 kb/s)',
  downscaled: 'downscaled to half size',
  cropped: 'cropped (9 % off each edge, scaled back)',
  trimmed: 'trimmed to the middle 60 %',
  'sped-up': 'sped up 1.1x (setpts, atempo)',
  mirrored: 'mirrored (hflip)',
  letterboxed: 'letterboxed (shrunk to 75 %, black bars all round)',
  pillarboxed: 'pillarboxed (in a 16:9 frame)',
};

const even = (x: number) => 2 * Math.round(x / 2);

/** ffmpeg arguments that make copy `kind` of `input` (a clip of `shape`) at `output`. */
export function transformArgs(kind: Transform, input: string, output: string, shape: ClipShape): string[] {
  const { width: w, height: h, durationSeconds: d } = shape;
  const io = (filters: { vf?: string; af?: string }, before: string[] = [], after: string[] = []) => [
    ...HEAD,
    ...before,
    '-i',
    `file:${input}`,
    ...(filters.vf ? ['-vf', filters.vf] : []),
    ...(filters.af ? ['-af', filters.af] : []),
    ...after,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-f',
    'mp4',
    `file:${output}`,
  ];
  switch (kind) {
    case 'reencoded':
      return [
        ...HEAD,
        '-i',
        `file:${input}`,
        '-c:v',
        'libx264',
        '-preset',
        'faster',
        '-crf',
        '30',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-f',
        'mp4',
        `file:${output}`,
      ];
    case 'downscaled':
      return io({ vf: `scale=${even(w / 2)}:${even(h / 2)}` });
    case 'cropped':
      return io({ vf: `crop=${even(w * 0.82)}:${even(h * 0.82)},scale=${w}:${h}` });
    case 'trimmed':
      return io({}, ['-ss', (d * 0.2).toFixed(3)], ['-t', (d * 0.6).toFixed(3)]);
    case 'sped-up':
      return io({ vf: 'setpts=PTS/1.1', af: 'atempo=1.1' });
    case 'mirrored':
      return io({ vf: 'hflip' });
    case 'letterboxed':
      return io({ vf: `scale=${even(w * 0.75)}:${even(h * 0.75)},pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:black` });
    case 'pillarboxed':
      return io({ vf: `pad=${even((h * 16) / 9)}:${h}:(ow-iw)/2:0:black` });
  }
}
