// The bottom bar's Add button opens the add-clip dialog, which the public remote owns and exposes as
// `./AddClipDialog`. It is fetched on the first press; when it cannot be had (the remote is down, or a
// build that does not expose it yet) a toast says so and the page carries on.
import type { AddClipDialogProps } from '@clipit/frontend-contracts';
import { useToast } from '@clipit/ui';
import { Component, useCallback, useState, type ComponentType, type ReactNode } from 'react';
import { useSite } from '../routing/site-context.js';

const ADD_CLIP_UNAVAILABLE = {
  title: 'Unavailable',
  description: 'Adding clips is unavailable right now. Please try again.',
} as const;

/** A dialog that throws while rendering is closed and reported instead of taking the frame down. */
class DialogBoundary extends Component<{ onError: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

export interface AddClip {
  /** Loads the dialog if needed and opens it, or toasts that it is unavailable. */
  open: () => void;
  /** True while the dialog is being fetched. */
  loading: boolean;
  /** The dialog, to render once (nothing before it was first opened). */
  dialog: ReactNode;
}

export function useAddClip(): AddClip {
  const { load } = useSite();
  const { toast } = useToast();
  const [Dialog, setDialog] = useState<ComponentType<AddClipDialogProps> | null>(null);
  const [isOpen, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);

  const unavailable = useCallback(
    (error: unknown) => {
      console.error(error);
      toast({ ...ADD_CLIP_UNAVAILABLE, variant: 'destructive' });
    },
    [toast],
  );

  const open = useCallback(() => {
    if (Dialog) {
      setOpen(true);
      return;
    }
    if (loading) return;
    setLoading(true);
    load('public', './AddClipDialog')
      .then((module) => {
        const loaded: unknown = module.default;
        if (typeof loaded !== 'function' && (typeof loaded !== 'object' || loaded === null)) {
          throw new Error('public/AddClipDialog has no default export');
        }
        setDialog(() => module.default);
        setOpen(true);
      })
      .catch(unavailable)
      .finally(() => setLoading(false));
  }, [Dialog, load, loading, unavailable]);

  const onError = useCallback(
    (error: unknown) => {
      setOpen(false);
      setDialog(null);
      unavailable(error);
    },
    [unavailable],
  );

  const dialog = Dialog ? (
    <DialogBoundary onError={onError}>
      <Dialog open={isOpen} onOpenChange={setOpen} />
    </DialogBoundary>
  ) : null;
  return { open, loading, dialog };
}
