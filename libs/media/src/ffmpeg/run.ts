import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { MediaToolError } from '../errors.js';

/** What a run of ffmpeg or ffprobe is for: its span's name, `ffmpeg <operation>`. */
export type FfmpegOperation = 'probe' | 'transcode' | 'thumbnail' | 'remux' | 'prepare' | 'frames' | 'fingerprint';

export interface RunToolOptions {
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Killed (SIGKILL) when this aborts, e.g. on shutdown. */
  signal?: AbortSignal | undefined;
  /** stdout beyond this many bytes is an error (ffprobe's JSON is a few KB). */
  maxStdoutBytes?: number;
  /**
   * What the run is for. Under a traced job the run is an `ffmpeg <operation>` span (ADR 0054); a run
   * without one (the readiness check's `-version`) is never traced.
   */
  operation?: FfmpegOperation;
  /** The input's duration in seconds, for the span: as the caller knows it, or read from the run's output (ffprobe's). */
  inputDurationSeconds?: number | ((output: ToolOutput) => number | undefined);
}

export interface ToolOutput {
  stdout: string;
  /** stdout as it came (raw frames, for one). */
  stdoutBytes: Buffer;
  stderrTail: string;
}

/** How much of stderr is kept for error messages: ffmpeg's last lines say what went wrong. */
export const STDERR_TAIL_BYTES = 4096;

/**
 * Runs ffmpeg or ffprobe: no shell (arguments go to the binary as they are), stdin closed, stdout
 * collected, only the tail of stderr kept. Resolves on exit code 0; rejects with a MediaToolError
 * carrying the exit code and stderr tail otherwise, and kills the process on timeout or abort.
 *
 * A run given its `operation` under an active span (a traced job's) is an INTERNAL span `ffmpeg
 * <operation>` with the exit code and the input's duration. Only under one: this module starts no trace.
 */
export function runTool(binary: string, args: readonly string[], opts: RunToolOptions): Promise<ToolOutput> {
  const parent = context.active();
  const active = opts.operation ? trace.getSpanContext(parent) : undefined;
  if (!opts.operation || !active || !isSpanContextValid(active)) return spawnTool(binary, args, opts);
  const span = trace.getTracer('@clipit/media').startSpan(
    `ffmpeg ${opts.operation}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'process.executable.name': binary.split('/').pop() ?? binary,
        'clipit.ffmpeg.operation': opts.operation,
        ...(typeof opts.inputDurationSeconds === 'number' ? { 'clipit.media.input_duration_s': opts.inputDurationSeconds } : {}),
      },
    },
    parent,
  );
  return spawnTool(binary, args, opts).then(
    (output) => {
      const duration = typeof opts.inputDurationSeconds === 'function' ? opts.inputDurationSeconds(output) : undefined;
      span.setAttributes({ 'process.exit.code': 0, ...(duration === undefined ? {} : { 'clipit.media.input_duration_s': duration }) });
      span.end();
      return output;
    },
    (err: unknown) => {
      const exitCode = err instanceof MediaToolError ? err.details.exitCode : undefined;
      if (typeof exitCode === 'number') span.setAttribute('process.exit.code', exitCode);
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      span.end();
      throw err;
    },
  );
}

function spawnTool(binary: string, args: readonly string[], opts: RunToolOptions): Promise<ToolOutput> {
  const tool = binary.split('/').pop() ?? binary;
  if (opts.signal?.aborted) return Promise.reject(new MediaToolError(tool, `${tool} not started: aborted`, { aborted: true }));
  const executable = findExecutable(binary);
  if (!executable)
    return Promise.reject(
      new MediaToolError(tool, `${binary} not found: install ffmpeg (Debian: apt-get install -y ffmpeg) or set FFMPEG_PATH/FFPROBE_PATH`),
    );
  const [command, argv] = PDEATHSIG_WRAPPER
    ? [PDEATHSIG_WRAPPER, ['--pdeathsig', 'KILL', '--', executable, ...args]]
    : [executable, [...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stdoutOverflow = false;
    let stderrTail = Buffer.alloc(0);
    let timedOut = false;
    let aborted = false;
    let settled = false;

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (opts.maxStdoutBytes !== undefined && stdoutBytes > opts.maxStdoutBytes) {
        stdoutOverflow = true;
        kill();
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      done(() => reject(new MediaToolError(tool, `${tool} could not start: ${err.message}`, { cause: err })));
    });
    child.once('close', (exitCode, signal) => {
      const tail = tailText(stderrTail);
      done(() => {
        if (exitCode === 0 && !stdoutOverflow) {
          const bytes = Buffer.concat(stdout);
          resolve({ stdout: bytes.toString('utf8'), stdoutBytes: bytes, stderrTail: tail });
          return;
        }
        const why = timedOut
          ? `timed out after ${opts.timeoutMs} ms`
          : aborted
            ? 'aborted'
            : stdoutOverflow
              ? `wrote more than ${opts.maxStdoutBytes} bytes to stdout`
              : signal
                ? `killed by ${signal}`
                : `exited with code ${exitCode}`;
        reject(
          new MediaToolError(tool, `${tool} ${why}${tail ? `: ${lastLine(tail)}` : ''}`, {
            exitCode,
            signal,
            stderrTail: tail,
            timedOut,
            aborted,
          }),
        );
      });
    });
  });
}

/**
 * On Linux, tools are started through util-linux's `setpriv --pdeathsig KILL`, so the kernel kills
 * ffmpeg when the worker dies (SIGKILL, OOM) instead of leaving it to run on as an orphan; the kill
 * on timeout and abort covers every other way of stopping. Elsewhere tools start directly.
 */
const PDEATHSIG_WRAPPER = process.platform === 'linux' && isExecutable('/usr/bin/setpriv') ? '/usr/bin/setpriv' : undefined;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The binary's path: as given when it names a path, else the first match on PATH (as a shell would find it). */
export function findExecutable(binary: string, pathVariable = process.env['PATH'] ?? ''): string | undefined {
  if (binary.includes('/')) {
    const path = isAbsolute(binary) ? binary : resolve(binary);
    return isExecutable(path) ? path : undefined;
  }
  for (const dir of pathVariable.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The kept stderr as text, starting at a line boundary when it was cut. */
function tailText(buf: Buffer): string {
  const text = buf.toString('utf8');
  if (buf.length < STDERR_TAIL_BYTES) return text.trim();
  const nl = text.indexOf('\n');
  return (nl >= 0 ? text.slice(nl + 1) : text).trim();
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}
