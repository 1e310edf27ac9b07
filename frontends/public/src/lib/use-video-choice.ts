// The video picker both submission forms have (the add-clip dialog, /submit): a chosen file is checked
// for type and size, then for duration by the browser's decoder; a refused one is said in a toast and
// the picker cleared, so what is chosen is always a video the gateway will take.
import { VIDEO_PROBLEMS, type Problem } from '@clipit/field-rules';
import { useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { checkVideoDuration, checkVideoFile, videoMetadata } from './clip-submission.js';

export interface VideoChoice {
  video: File | null;
  /** True while the duration is being read. */
  checking: boolean;
  /** The file input's ref (cleared with the choice). */
  inputRef: RefObject<HTMLInputElement | null>;
  /** The file input's onChange. */
  choose(event: ChangeEvent<HTMLInputElement>): Promise<void>;
  clear(): void;
}

/** What a chosen file lacks to be uploaded, or null: type and size first, then the duration. */
export async function checkChosenVideo(file: File): Promise<Problem | null> {
  const rejected = checkVideoFile(file);
  if (rejected) return rejected;
  try {
    return checkVideoDuration(await videoMetadata.readDuration(file));
  } catch {
    return VIDEO_PROBLEMS.invalid;
  }
}

export function useVideoChoice(say: (problem: Problem) => void): VideoChoice {
  const inputRef = useRef<HTMLInputElement>(null);
  const [video, setVideo] = useState<File | null>(null);
  const [checking, setChecking] = useState(false);
  const clear = () => {
    setVideo(null);
    if (inputRef.current) inputRef.current.value = '';
  };
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (!file) {
      setVideo(null);
      return;
    }
    setChecking(true);
    const found = await checkChosenVideo(file).finally(() => setChecking(false));
    if (found) {
      say(found);
      clear();
      return;
    }
    setVideo(file);
  };
  return { video, checking, inputRef, choose, clear };
}
