import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { isChildOf, startInMemoryTracing, type InMemoryTracing } from '@clipit/testing';
import { MediaToolError } from '../errors.js';
import { probe } from './probe.js';
import { runTool } from './run.js';

// Small stand-ins for the binaries (a shell script answers what ffprobe would): the span is runTool's,
// whatever it runs, so these tests need no media file and no ffmpeg.
describe('ffmpeg runs in a traced job (ADR 0054)', () => {
  let tracing: InMemoryTracing;
  let dir: string;
  let fakeProbe: string;
  let failing: string;

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    dir = await mkdtemp(join(tmpdir(), 'clipit-run-spec-'));
    fakeProbe = join(dir, 'ffprobe');
    failing = join(dir, 'ffmpeg');
    const streams = '{"codec_type":"video","codec_name":"h264","width":720,"height":1280,"duration":"12.5"}';
    await writeFile(fakeProbe, `#!/bin/sh\necho '{"streams":[${streams}],"format":{"format_name":"mp4","duration":"12.5"}}'\n`);
    await writeFile(failing, '#!/bin/sh\necho "Invalid data found when processing input" >&2\nexit 3\n');
    await Promise.all([chmod(fakeProbe, 0o755), chmod(failing, 0o755)]);
  });

  afterAll(async () => {
    await tracing.stop();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => tracing.reset());

  it('is an INTERNAL span `ffmpeg <operation>` under the job, with the exit code and the input duration', async () => {
    const result = await tracing.traced(async (job) => {
      const probed = await probe('clip.mp4', { ffprobePath: fakeProbe });
      await runTool(failing, [], { timeoutMs: 5000, operation: 'transcode', inputDurationSeconds: probed.durationSeconds }).catch(
        (err: unknown) => err,
      );
      return { job, probed };
    });
    expect(result.probed.durationSeconds).toBe(12.5);
    const [probeSpan] = tracing.named('ffmpeg probe');
    expect(probeSpan).toBeDefined();
    expect(probeSpan!.kind).toBe(SpanKind.INTERNAL);
    expect(isChildOf(probeSpan!, result.job)).toBe(true);
    expect(probeSpan!.attributes).toMatchObject({ 'process.exit.code': 0, 'clipit.media.input_duration_s': 12.5 });
    expect(probeSpan!.status.code).not.toBe(SpanStatusCode.ERROR);

    const [transcode] = tracing.named('ffmpeg transcode');
    expect(isChildOf(transcode!, result.job)).toBe(true);
    expect(transcode!.attributes).toMatchObject({ 'process.exit.code': 3, 'clipit.media.input_duration_s': 12.5 });
    expect(transcode!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('starts no span outside a traced job, nor for a run that names no operation (the readiness check)', async () => {
    await probe('clip.mp4', { ffprobePath: fakeProbe });
    await expect(runTool(failing, [], { timeoutMs: 5000, operation: 'frames' })).rejects.toBeInstanceOf(MediaToolError);
    await tracing.traced(() => runTool(fakeProbe, ['-version'], { timeoutMs: 5000 }));
    expect(tracing.spans().map((s) => s.name)).toEqual(['test request']);
  });
});
