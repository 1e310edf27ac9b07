// The video picker of both submission forms (the add-clip dialog's optional one, /submit's required one):
// the file input, and under it what is happening: the duration being read, the chosen file with its size,
// or the limits.
import { useId } from 'react';
import { formatMegabytes, VIDEO_ACCEPT, VIDEO_HINT } from '../lib/clip-submission.js';
import type { VideoChoice } from '../lib/use-video-choice.js';

export function VideoField({ choice, required }: { choice: VideoChoice; required: boolean }) {
  const id = useId();
  return (
    <div className="clip-field">
      <label className="clip-field__label" htmlFor={id}>
        {required ? (
          <>
            Video
            <span className="clip-field__required" aria-hidden="true">
              {' *'}
            </span>
          </>
        ) : (
          'Video (optional)'
        )}
      </label>
      <input
        ref={choice.inputRef}
        id={id}
        className="clipit-file-input"
        type="file"
        name="video"
        accept={VIDEO_ACCEPT}
        aria-required={required || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => void choice.choose(e)}
      />
      <p id={`${id}-hint`} className="clip-field__description">
        {choice.checking ? (
          'Checking video...'
        ) : choice.video ? (
          <span className="clipit-file-chosen" data-testid="chosen-video">
            {choice.video.name} ({formatMegabytes(choice.video.size)})
          </span>
        ) : (
          VIDEO_HINT
        )}
      </p>
    </div>
  );
}
