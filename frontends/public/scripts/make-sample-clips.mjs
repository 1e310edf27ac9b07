// Makes the two sample clips of /client-services (spec 01 §2: "two sample videos") and their posters,
// with ffmpeg's own sources: no footage of anyone, nothing downloaded, a few hundred KB in all. Portrait
// 9:16 at 360x640, 6 s, H.264 baseline with AAC, the moov atom first (faststart) so a browser starts
// playing after the first range request.
//   node frontends/public/scripts/make-sample-clips.mjs   (needs ffmpeg with libx264 and drawtext)
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join(import.meta.dirname, '..', 'src', 'assets');
const FONT = process.env.CLIPIT_SAMPLE_FONT ?? '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const SECONDS = 6;
const SIZE = '360x640';
/** Each file must stay well under this: the page downloads both. */
const MAX_BYTES = 300 * 1024;

const CLIPS = [
  {
    name: 'sample-stream-highlight',
    // Moving colour gradients, as a stream's backdrop.
    video: `gradients=s=${SIZE}:r=24:d=${SECONDS}:c0=0x101018:c1=0x7c3aed:c2=0xc6f432:speed=0.02:seed=7`,
    caption: 'STREAM HIGHLIGHT',
    tone: 440,
  },
  {
    name: 'sample-meme-edit',
    // Warmer, faster gradients behind a meme edit's captions.
    video: `gradients=s=${SIZE}:r=24:d=${SECONDS}:n=3:c0=0xff5f1f:c1=0x1f1147:c2=0xffd23f:speed=0.04:seed=42`,
    caption: 'MEME EDIT',
    tone: 660,
  },
];

const text = (value, y, size, colour) =>
  `drawtext=fontfile='${FONT}':text='${value}':fontsize=${size}:fontcolor=${colour}:borderw=3:bordercolor=black@0.6:x=(w-text_w)/2:y=${y}`;

const run = (args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'inherit' });

for (const clip of CLIPS) {
  const mp4 = join(OUT, `${clip.name}.mp4`);
  const jpg = join(OUT, `${clip.name}.jpg`);
  const filters = [
    text('CLIP IT', '(h-text_h)/2-40', 64, 'white'),
    text(clip.caption, '(h-text_h)/2+40', 26, '0xc6f432'),
    // A running timer, so a playing clip visibly moves.
    text('%{eif\\:t\\:d}.%{eif\\:mod(t*10\\,10)\\:d}s', 'h-80', 22, 'white@0.85'),
    'format=yuv420p',
  ].join(',');
  run([
    ...['-f', 'lavfi', '-i', clip.video],
    ...['-f', 'lavfi', '-i', `sine=frequency=${clip.tone}:sample_rate=44100:duration=${SECONDS}`],
    ...['-vf', filters, '-t', String(SECONDS)],
    ...['-c:v', 'libx264', '-profile:v', 'baseline', '-level', '3.0', '-preset', 'veryslow', '-crf', '32', '-g', '48'],
    ...['-c:a', 'aac', '-b:a', '48k', '-ac', '1', '-af', 'volume=0.2'],
    ...['-movflags', '+faststart', '-map_metadata', '-1', '-fflags', '+bitexact'],
    mp4,
  ]);
  // The poster: the clip's frame at 1 s, what the page shows before the video has data.
  run(['-ss', '1', '-i', mp4, '-frames:v', '1', '-q:v', '6', jpg]);
  const bytes = statSync(mp4).size;
  if (bytes > MAX_BYTES) throw new Error(`${mp4} is ${bytes} bytes, more than ${MAX_BYTES}`);
  console.log(`${clip.name}: ${(bytes / 1024).toFixed(0)} KB video, ${(statSync(jpg).size / 1024).toFixed(0)} KB poster`);
}
