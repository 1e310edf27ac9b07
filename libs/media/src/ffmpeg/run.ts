import { spawn } from 'node:child_process';
import { MediaToolError } from '../errors.js';

export interface RunToolOptions {
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Killed (SIGKILL) when this aborts, e.g. on shutdown. */
  signal?: AbortSignal | undefined;
  /** stdout beyond this many bytes is an error (ffprobe's JSON is a few KB). */
  maxStdoutBytes?: number;
}

export interface ToolOutput {
  stdout: string;
  stderrTail: string;
}

/** How much of stderr is kept for error messages: ffmpeg's last lines say what went wrong. */
export const STDERR_TAIL_BYTES = 4096;

/**
 * Runs ffmpeg or ffprobe: no shell (arguments go to the binary as they are), stdin closed, stdout
 * collected, only the tail of stderr kept. Resolves on exit code 0; rejects with a MediaToolError
 * carrying the exit code and stderr tail otherwise, and kills the process on timeout or abort.
 */
export function runTool(binary: string, args: readonly string[], opts: RunToolOptions): Promise<ToolOutput> {
  const tool = binary.split('/').pop() ?? binary;
  if (opts.signal?.aborted) return Promise.reject(new MediaToolError(tool, `${tool} not started: aborted`, { aborted: true }));
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
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
      const message = err.code === 'ENOENT' ? `${binary} not found: install ffmpeg or set FFMPEG_PATH/FFPROBE_PATH` : `${tool} could not start: ${err.message}`;
      done(() => reject(new MediaToolError(tool, message, { cause: err })));
    });
    child.once('close', (exitCode, signal) => {
      const tail = tailText(stderrTail);
      done(() => {
        if (exitCode === 0 && !stdoutOverflow) {
          resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderrTail: tail });
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
          new MediaToolError(tool, `${tool} ${why}${tail ? `: ${lastLine(tail)}` : ''}`, { exitCode, signal, stderrTail: tail, timedOut, aborted }),
        );
      });
    });
  });
}

/** The kept stderr as text, starting at a line boundary when it was cut. */
function tailText(buf: Buffer): string {
  const text = buf.toString('utf8');
  if (buf.length < STDERR_TAIL_BYTES) return text.trim();
  const nl = text.indexOf('\n');
  return (nl >= 0 ? text.slice(nl + 1) : text).trim();
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}
