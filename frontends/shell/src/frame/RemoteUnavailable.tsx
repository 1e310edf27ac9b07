export const REMOTE_UNAVAILABLE_TEXT = 'This part of CLIP IT could not be loaded.';

export interface RemoteUnavailableProps {
  onRetry: () => void;
  retrying?: boolean;
}

/** Shown inside the frame, in place of whatever could not be loaded; Retry loads it again. */
export function RemoteUnavailable({ onRetry, retrying = false }: RemoteUnavailableProps) {
  return (
    <section role="alert" className="clipit-remote-unavailable">
      <p>{REMOTE_UNAVAILABLE_TEXT}</p>
      <button type="button" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        Retry
      </button>
    </section>
  );
}
