/**
 * The picture half of a clip's fingerprint: a 64-bit perceptual hash (pHash) of each sampled frame, computed
 * on the picture without its letterbox or pillarbox bars, the same for the frame and its mirror image.
 *
 * Why a DCT hash: the signs of a picture's lowest spatial frequencies, compared with their median, survive
 * what a re-upload does to it (a re-encode, a smaller size, a colour or gamma change) and tell unrelated
 * pictures apart; Hamming distance compares two of them in nanoseconds, so a clip's sixty frames are
 * matched against another's in well under a millisecond.
 */

/**
 * ffmpeg scales every sampled frame to this square, in gray. Fine enough that a 9:16 clip pillarboxed in a 16:9
 * frame keeps 81 columns of picture, so its content box is found to a small fraction of its width: at 128 (40
 * columns) the box's edges put a pillarboxed copy 8 bits from its original, at 256 6, like any other copy.
 */
export const FRAME_SIZE = 256;

/** The content box is resized to this square before the DCT. */
export const HASH_GRID = 32;

/** A frame whose content box varies less than this (standard deviation, gray levels) is near-uniform: black, one colour, a fade. Its hash would be noise. */
export const MIN_FRAME_CONTRAST = 5;

/**
 * A frame with less detail than this (the mean step, in gray levels, between neighbouring cells of its
 * HASH_GRID grid, across and down) is plain: a smooth gradient, a wall, a sky, a blur. Its hash is set by one
 * or two broad shapes (brighter at the top, a blob in a corner) that countless unrelated pictures share, so it
 * is left out like a uniform one. Measured: plain generated scenes 0.4–3, pictures with edges or texture 4–50;
 * PDQ (Facebook's frame hash) drops low-quality frames for the same reason, by the same kind of gradient sum.
 */
export const MIN_FRAME_DETAIL = 3;

/**
 * Bar detection: a line (row or column) of a frame is flat when its pixels span at most this many gray
 * levels. Encoded black is flat to a level or two; the edge of the picture area, blended into the line
 * next to it by the downscale, is not.
 */
export const BAR_FLATNESS = 12;
/** …and still when its mean stays within this many levels of its mean in the first frame, in every frame. */
export const BAR_STILLNESS = 6;
/** …and dark when its mean is at most this (black is 0 in full range, 16 in TV range). */
export const BAR_DARKNESS = 40;
/** Bars never take more than this share of a side (each edge), so a dark, still clip keeps most of its picture. */
export const MAX_BAR_SHARE = 0.35;

/** The content box in a FRAME_SIZE square: columns [left, right), rows [top, bottom); its edges may fall inside a pixel. */
export interface ContentBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Which DCT coefficients make the hash, lowest frequencies first: horizontal frequency `u` even only, and
 * the DC term left out. Mirror invariance by construction: flipping a picture left to right multiplies
 * coefficient (u, v) by (-1)^u, so the even-u coefficients of a frame and of its mirror image are equal
 * and so are their hashes (no mirrored hash to store as well, nothing to guess about which way a copy faces).
 * What this gives up is the picture's left-right antisymmetric part; what is left still has 64
 * independent low frequencies. Ordered by u² + v² (ties by v, then u), so the first bits, which make
 * the first index band ({@link indexKeys}), are the steadiest: a crop or a rescale moves low
 * frequencies least.
 */
export const HASH_COEFFICIENTS: ReadonlyArray<readonly [u: number, v: number]> = (() => {
  const all: Array<[number, number]> = [];
  for (let u = 0; u < HASH_GRID; u += 2) for (let v = 0; v < HASH_GRID; v += 1) if (u + v > 0) all.push([u, v]);
  all.sort((a, b) => a[0] ** 2 + a[1] ** 2 - (b[0] ** 2 + b[1] ** 2) || a[1] - b[1] || a[0] - b[0]);
  return all.slice(0, 64);
})();

const MAX_U = Math.max(...HASH_COEFFICIENTS.map(([u]) => u));
const MAX_V = Math.max(...HASH_COEFFICIENTS.map(([, v]) => v));

/** cos(π(2n+1)k / 2N) for k up to the highest frequency used. */
const COSINES: Float64Array[] = Array.from({ length: Math.max(MAX_U, MAX_V) + 1 }, (_, k) =>
  Float64Array.from({ length: HASH_GRID }, (_, n) => Math.cos((Math.PI * (2 * n + 1) * k) / (2 * HASH_GRID))),
);

/**
 * Frames whose content box has less than MIN_FRAME_CONTRAST of contrast. The uniform ones (a black frame,
 * a title card of one colour) would match every other uniform frame of every other clip.
 */
export function isNearUniform(grid: Float64Array): boolean {
  let sum = 0;
  let squares = 0;
  for (const v of grid) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / grid.length;
  return Math.sqrt(Math.max(0, squares / grid.length - mean * mean)) < MIN_FRAME_CONTRAST;
}

/** The detail of a HASH_GRID grid: the mean absolute step between neighbouring cells, across and down ({@link MIN_FRAME_DETAIL}). */
export function frameDetail(grid: Float64Array): number {
  let steps = 0;
  for (let y = 0; y < HASH_GRID; y += 1) {
    for (let x = 0; x < HASH_GRID; x += 1) {
      const v = grid[y * HASH_GRID + x]!;
      if (x + 1 < HASH_GRID) steps += Math.abs(grid[y * HASH_GRID + x + 1]! - v);
      if (y + 1 < HASH_GRID) steps += Math.abs(grid[(y + 1) * HASH_GRID + x]! - v);
    }
  }
  return steps / (2 * HASH_GRID * (HASH_GRID - 1));
}

/** Frames whose hash says nothing of them: near-uniform, or plain. */
export const isPlain = (grid: Float64Array) => isNearUniform(grid) || frameDetail(grid) < MIN_FRAME_DETAIL;

/** The frame's pixel `(x, y)` in `frames` (FRAME_SIZE squares back to back). */
const pixel = (frames: Uint8Array, frame: number, x: number, y: number, size: number) => frames[frame * size * size + y * size + x]!;

/**
 * The content box shared by all `frames` (gray squares of `size`, back to back): from each edge inwards,
 * the rows or columns that are dark, flat and still in every frame are bars. Across all frames, because one
 * dark frame (night, a fade) is dark at its edges without having bars, while a bar stays the same for the
 * whole clip. Frames listed in `skip` (near-uniform ones: a black frame is "all bar") are not looked at.
 * A copy letterboxed or pillarboxed into another frame shape thus hashes the same picture as its original.
 */
export function findContentBox(frames: Uint8Array, size: number, skip: ReadonlySet<number> = new Set()): ContentBox {
  const count = Math.floor(frames.length / (size * size));
  const looked = Array.from({ length: count }, (_, k) => k).filter((k) => !skip.has(k));
  const whole = { left: 0, top: 0, right: size, bottom: size };
  if (looked.length === 0) return whole;
  const maxBar = Math.floor(size * MAX_BAR_SHARE);
  // Is line `i` (a row when `rows`, else a column) a bar in every frame looked at?
  const isBar = (rows: boolean, i: number): boolean => {
    let firstMean: number | undefined;
    for (const k of looked) {
      let min = 255;
      let max = 0;
      let sum = 0;
      for (let j = 0; j < size; j += 1) {
        const v = rows ? pixel(frames, k, j, i, size) : pixel(frames, k, i, j, size);
        if (v < min) min = v;
        if (v > max) max = v;
        sum += v;
      }
      const mean = sum / size;
      firstMean ??= mean;
      if (max - min > BAR_FLATNESS || mean > BAR_DARKNESS || Math.abs(mean - firstMean) > BAR_STILLNESS) return false;
    }
    return true;
  };
  // The mean of line `i` over every frame looked at.
  const lineMean = (rows: boolean, i: number): number => {
    let sum = 0;
    for (const k of looked) for (let j = 0; j < size; j += 1) sum += rows ? pixel(frames, k, j, i, size) : pixel(frames, k, i, j, size);
    return sum / (size * looked.length);
  };
  // How far in from the edge at `from` the picture starts, stepping by `step`: the bar lines, and a fraction of
  // the line after them. A bar seldom ends on a pixel boundary of the small frame: the downscale blends that line
  // of bar and picture, and taking it whole or not at all leaves a sliver of bar in the box or cuts a sliver of
  // picture, a zoom of several per cent for a 9:16 picture 40 pixels wide in a 16:9 frame. Its share of picture,
  // measured against the line inside it, moves the edge into it.
  const edge = (rows: boolean, from: number, step: 1 | -1): number => {
    let bars = 0;
    while (bars < maxBar && isBar(rows, from + step * bars)) bars += 1;
    if (bars === 0 || bars + 1 >= size / 2) return bars;
    const bar = lineMean(rows, from + step * (bars - 1));
    const blended = lineMean(rows, from + step * bars) - bar;
    const inner = lineMean(rows, from + step * (bars + 1)) - bar;
    // A picture as dark as the bar next to it says nothing about where the bar ends.
    if (Math.abs(inner) < MIN_FRAME_CONTRAST) return bars;
    return bars + 1 - Math.min(1, Math.max(0, blended / inner));
  };
  return {
    top: edge(true, 0, 1),
    bottom: size - edge(true, size - 1, -1),
    left: edge(false, 0, 1),
    right: size - edge(false, size - 1, -1),
  };
}

/**
 * The box of frame `k` resized to HASH_GRID x HASH_GRID by area averaging (each output cell the mean of the
 * source pixels it covers, fractions of a pixel weighted), as ffmpeg's `flags=area` would: the picture's
 * shape is forgotten, so a 9:16 box from a pillarboxed 16:9 frame and the full 9:16 frame meet on one grid.
 */
export function resizeBox(frames: Uint8Array, size: number, k: number, box: ContentBox): Float64Array {
  return resizeWith(frames, size, k, boxWeights(box));
}

/** A box's area weights across and down, worked out once for every frame resized to it. */
interface BoxWeights {
  box: ContentBox;
  across: AreaWeights;
  down: AreaWeights;
}

function boxWeights(box: ContentBox): BoxWeights {
  return { box, across: areaWeights(box.left, box.right), down: areaWeights(box.top, box.bottom) };
}

/** {@link resizeBox} with the box's weights already worked out. */
function resizeWith(frames: Uint8Array, size: number, k: number, { box, across: xWeights, down: yWeights }: BoxWeights): Float64Array {
  // Rows the box touches (its edges may fall inside a pixel: a zoomed box, for one).
  const top = Math.floor(box.top);
  const rowCount = Math.ceil(box.bottom) - top;
  const rows = new Float64Array(HASH_GRID * rowCount);
  const base = k * size * size;
  // Horizontal pass: every source row of the box to HASH_GRID cells. (Flat arrays and plain indices, in the
  // same order of additions as a cell-by-cell walk: this loop is nearly all of a fingerprint's arithmetic.)
  for (let r = 0; r < rowCount; r += 1) {
    const row = base + (top + r) * size;
    for (let gx = 0; gx < HASH_GRID; gx += 1) {
      let acc = 0;
      for (let i = xWeights.start[gx]!, end = xWeights.start[gx + 1]!; i < end; i += 1)
        acc += xWeights.weight[i]! * frames[row + xWeights.pixel[i]!]!;
      rows[r * HASH_GRID + gx] = acc;
    }
  }
  const grid = new Float64Array(HASH_GRID * HASH_GRID);
  for (let gy = 0; gy < HASH_GRID; gy += 1) {
    for (let gx = 0; gx < HASH_GRID; gx += 1) {
      let acc = 0;
      for (let i = yWeights.start[gy]!, end = yWeights.start[gy + 1]!; i < end; i += 1)
        acc += yWeights.weight[i]! * rows[(yWeights.pixel[i]! - top) * HASH_GRID + gx]!;
      grid[gy * HASH_GRID + gx] = acc;
    }
  }
  return grid;
}

/** The source pixels each of HASH_GRID cells covers and their weights: cell g's are entries start[g] to start[g + 1]. */
interface AreaWeights {
  start: Int32Array;
  pixel: Int32Array;
  weight: Float64Array;
}

/** For each of HASH_GRID cells over [from, to): the source pixels it covers and their weights (summing to 1). */
function areaWeights(from: number, to: number): AreaWeights {
  const span = (to - from) / HASH_GRID;
  const pixels: number[] = [];
  const weights: number[] = [];
  const start = new Int32Array(HASH_GRID + 1);
  for (let g = 0; g < HASH_GRID; g += 1) {
    start[g] = pixels.length;
    const first = from + g * span;
    const last = first + span;
    for (let p = Math.floor(first); p < Math.ceil(last); p += 1) {
      const cover = Math.min(last, p + 1) - Math.max(first, p);
      if (cover > 1e-9) {
        pixels.push(p);
        weights.push(cover / span);
      }
    }
  }
  start[HASH_GRID] = pixels.length;
  return { start, pixel: Int32Array.from(pixels), weight: Float64Array.from(weights) };
}

/** The HASH_COEFFICIENTS of the 2-D DCT-II of a HASH_GRID square (unnormalized: only signs and order matter). */
export function lowFrequencies(grid: Float64Array): Float64Array {
  // Rows first, for the horizontal frequencies used only (even u up to MAX_U).
  const byRow = new Float64Array((MAX_U + 1) * HASH_GRID);
  for (let u = 0; u <= MAX_U; u += 2) {
    const cu = COSINES[u]!;
    for (let y = 0; y < HASH_GRID; y += 1) {
      let acc = 0;
      for (let x = 0; x < HASH_GRID; x += 1) acc += grid[y * HASH_GRID + x]! * cu[x]!;
      byRow[u * HASH_GRID + y] = acc;
    }
  }
  return Float64Array.from(HASH_COEFFICIENTS, ([u, v]) => {
    const cv = COSINES[v]!;
    let acc = 0;
    for (let y = 0; y < HASH_GRID; y += 1) acc += byRow[u * HASH_GRID + y]! * cv[y]!;
    return acc;
  });
}

/**
 * The 64-bit hash of a content grid: bit i (from the most significant) is set when coefficient i of
 * HASH_COEFFICIENTS is above their median. As 16 lowercase hex digits.
 */
export function hashGrid(grid: Float64Array): string {
  const coefficients = lowFrequencies(grid);
  const sorted = Float64Array.from(coefficients).sort();
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i += 1) {
    hi = (hi << 1) | (coefficients[i]! > median ? 1 : 0);
    lo = (lo << 1) | (coefficients[32 + i]! > median ? 1 : 0);
  }
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/**
 * The views hashed of every sampled frame, as zoom factors about the content box's centre: the whole box,
 * and its central 1/1.11 and 1/1.23. A copy cropped by 0–12 % off each edge and scaled back is the original
 * zoomed in by up to 1.28, and a DCT hash does not survive that (5 % of zoom already flips 8 of 64 bits; the
 * 22 % of a 9 % crop, 22): the copy's whole view is instead matched with the original's view of nearly the
 * same zoom (within 5.5 %), and an original cropped from a wider copy the other way round.
 */
export const ZOOMS = [1, 1.11, 1.23] as const;

/** The box seen at `zoom`: its central 1/zoom, edges possibly inside a pixel. */
export function zoomBox(box: ContentBox, zoom: number): ContentBox {
  const dx = ((box.right - box.left) * (1 - 1 / zoom)) / 2;
  const dy = ((box.bottom - box.top) * (1 - 1 / zoom)) / 2;
  return { left: box.left + dx, top: box.top + dy, right: box.right - dx, bottom: box.bottom - dy };
}

/**
 * The hashes of sampled frames (gray squares of `size`, back to back, in clip order): the bars found across
 * all of them removed, then for each frame kept one hash per view of ZOOMS, in that order (so frame k's
 * hashes are at ZOOMS.length * k + z). Plain frames ({@link isPlain}: near-uniform, or with too little
 * detail), in any of their views, are left out.
 */
export function hashFrames(frames: Uint8Array, size = FRAME_SIZE): string[] {
  const count = Math.floor(frames.length / (size * size));
  const whole = { left: 0, top: 0, right: size, bottom: size };
  // Plain frames are found on the whole frame first, so a black frame does not vote on where the bars are.
  const plain = new Set<number>();
  const wholeWeights = boxWeights(whole);
  for (let k = 0; k < count; k += 1) if (isPlain(resizeWith(frames, size, k, wholeWeights))) plain.add(k);
  const box = findContentBox(frames, size, plain);
  const views = ZOOMS.map((zoom) => boxWeights(zoomBox(box, zoom)));
  const hashes: string[] = [];
  for (let k = 0; k < count; k += 1) {
    if (plain.has(k)) continue;
    const grids = views.map((view) => resizeWith(frames, size, k, view));
    if (!grids.some(isNearUniform) && frameDetail(grids[0]!) >= MIN_FRAME_DETAIL) hashes.push(...grids.map(hashGrid));
  }
  return hashes;
}
