import type { RemoteRoute } from '@clipit/frontend-contracts';
import { Component, use, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { SCREEN_RENDERED_MARK } from '../federation/site.js';
import { RemoteUnavailable } from '../frame/RemoteUnavailable.js';

type Load = RemoteRoute['lazy'];

// One download per screen, shared by every visit; a failed one is forgotten when Retry is pressed.
// (React.lazy and the router's `lazy` would both keep the rejection forever.)
const downloads = new Map<Load, Promise<{ default: ComponentType }>>();

function download(load: Load): Promise<{ default: ComponentType }> {
  let pending = downloads.get(load);
  if (!pending) {
    pending = load();
    downloads.set(load, pending);
  }
  return pending;
}

function Screen({ load }: { load: Load }) {
  const { default: Loaded } = use(download(load));
  useEffect(() => {
    if (performance.getEntriesByName(SCREEN_RENDERED_MARK).length === 0) performance.mark(SCREEN_RENDERED_MARK);
  }, []);
  return <Loaded />;
}

class LoadBoundary extends Component<{ onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RemoteUnavailable onRetry={this.props.onRetry} /> : this.props.children;
  }
}

/**
 * A remote's screen, downloaded on first visit; if the download fails, the frame says so and offers Retry.
 * While it downloads it suspends up to the layout's boundary: on a navigation the page on screen stays
 * (the router's transition) with the frame marked busy; on the first render the main area is empty.
 */
export function RemoteScreen({ load }: { load: Load }) {
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    downloads.delete(load);
    setAttempt((n) => n + 1);
  };
  return (
    <LoadBoundary key={attempt} onRetry={retry}>
      <Screen load={load} />
    </LoadBoundary>
  );
}
