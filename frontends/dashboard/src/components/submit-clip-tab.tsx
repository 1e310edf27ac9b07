import { Spinner } from '@clipit/ui';
import { Link } from '@clipit/router';
import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { SUBMIT_PAGE } from '../lib/navigation.js';
import { loadSubmissionForm } from '../lib/public-remote.js';

type State = { status: 'loading' } | { status: 'ready'; Form: ComponentType } | { status: 'unavailable' };

/** The form's download, shared by every visit to the tab on this page; a failed one is tried again next time. */
let pending: Promise<ComponentType> | null = null;
function download(): Promise<ComponentType> {
  pending ??= loadSubmissionForm().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** A form that throws while rendering gives way to the link instead of taking the dashboard down. */
class FormBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function SubmitPageLink() {
  return (
    <div className="clipit-dash-empty" role="status">
      <p>The clip form could not be loaded here.</p>
      <Link to={SUBMIT_PAGE} className="clip-btn clip-btn--primary clip-btn--md">
        Submit your clip on the submit page
      </Link>
    </div>
  );
}

/**
 * The Submit New Clip tab (spec 02 §2.2): the public area's clip submission form, which the public remote
 * owns and exposes (`public/SubmissionForm`), loaded when the tab is first opened. When it cannot be had,
 * a link to the submit page instead.
 */
export function SubmitClipTab() {
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    download().then(
      (Form) => {
        if (live) setState({ status: 'ready', Form });
      },
      (error: unknown) => {
        console.error(error);
        if (live) setState({ status: 'unavailable' });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  if (state.status === 'loading') {
    return (
      <div className="clipit-dash-center clipit-dash-pad">
        <Spinner label="Loading the clip form" />
      </div>
    );
  }
  if (state.status === 'unavailable') return <SubmitPageLink />;
  const { Form } = state;
  return (
    <FormBoundary fallback={<SubmitPageLink />}>
      <Form />
    </FormBoundary>
  );
}

/** For specs: forget the downloaded form. */
export function resetSubmitClipTab(): void {
  pending = null;
}
