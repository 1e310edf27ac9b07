import type { ViewHistoryProps } from '@clipit/frontend-contracts';
import { Skeleton, useNearViewport } from '@clipit/ui';
import { Component, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { loadViewHistory } from '../lib/public-remote.js';

/** What the row says when the chart cannot be had: quietly, the row is still complete without it. */
export const VIEW_HISTORY_UNAVAILABLE = 'View history unavailable right now';

type State = { status: 'waiting' } | { status: 'ready'; Chart: ComponentType<ViewHistoryProps> } | { status: 'unavailable' };

/** The chart's download, shared by every row on this page; a failed one is tried again by the next row that asks. */
let pending: Promise<ComponentType<ViewHistoryProps>> | null = null;
function download(): Promise<ComponentType<ViewHistoryProps>> {
  pending ??= loadViewHistory().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** A chart that throws while rendering gives way to the quiet line instead of taking the list down. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <p className="clipit-dash-muted">{VIEW_HISTORY_UNAVAILABLE}</p> : this.props.children;
  }
}

/**
 * An approved submission's view history in the submissions list: the public remote's chart
 * (`public/ViewHistory`, which also says when the metrics were fetched and whether the post is
 * verified), downloaded and asked for only once the row comes near the screen.
 */
export function SubmissionViewHistory({ submissionId }: { submissionId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const [state, setState] = useState<State>({ status: 'waiting' });
  useEffect(() => {
    if (!near) return;
    let live = true;
    download().then(
      (Chart) => {
        if (live) setState({ status: 'ready', Chart });
      },
      (error: unknown) => {
        console.error(error);
        if (live) setState({ status: 'unavailable' });
      },
    );
    return () => {
      live = false;
    };
  }, [near]);

  let body: ReactNode;
  if (state.status === 'ready') {
    body = (
      <ChartBoundary>
        <state.Chart submissionId={submissionId} details />
      </ChartBoundary>
    );
  } else if (state.status === 'unavailable') {
    body = <p className="clipit-dash-muted">{VIEW_HISTORY_UNAVAILABLE}</p>;
  } else {
    body = <Skeleton className="clipit-dash-history__placeholder" data-testid="view-history-placeholder" />;
  }
  return (
    <div ref={box} className="clipit-dash-history">
      {body}
    </div>
  );
}

/** For specs: forget the downloaded chart. */
export function resetSubmissionViewHistory(): void {
  pending = null;
}
