import { Button } from '@clipit/ui';

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
      <Button variant="outline" onClick={onRetry} disabled={retrying} loading={retrying}>
        Retry
      </Button>
    </section>
  );
}
