/**
 * The file is not a video ffprobe can read: not a media file at all, no video stream, only a still
 * image, or no duration. A verdict on the file: processing it again gives the same answer.
 */
export class InvalidMediaError extends Error {
  constructor(
    message: string,
    /** The tail of ffprobe's stderr, when it refused the file. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'InvalidMediaError';
  }
}

/**
 * ffmpeg or ffprobe did not do its job for a reason that may not be the file's fault: the binary is
 * missing, it was killed (timeout, abort), or it failed while writing. Worth retrying.
 */
export class MediaToolError extends Error {
  constructor(
    readonly tool: string,
    message: string,
    readonly details: {
      exitCode?: number | null | undefined;
      signal?: NodeJS.Signals | null | undefined;
      /** The last lines ffmpeg/ffprobe wrote to stderr. */
      stderrTail?: string | undefined;
      timedOut?: boolean | undefined;
      aborted?: boolean | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'MediaToolError';
  }
}
