import { Button, useToast, type ButtonSize } from '@clipit/ui';
import { useState, type ComponentType } from 'react';
import type { HireDialogProps } from './hire-dialog.js';

type DialogModule = { default: ComponentType<HireDialogProps> };

// The dialog's code (its form, the hire rules, its styles) is its own chunk, fetched when a Hire Clipper
// button is pointed at, focused or pressed, so the feed's first render does not carry it.
let loading: Promise<DialogModule> | null = null;
let loaded: ComponentType<HireDialogProps> | null = null;

export function loadHireDialog(): Promise<DialogModule> {
  loading ??= import('./hire-dialog.js').then(
    (module) => {
      loaded = module.default;
      return module;
    },
    (error: unknown) => {
      loading = null; // a later press tries again
      throw error;
    },
  );
  return loading;
}

const warm = () => void loadHireDialog().catch(() => undefined);

export interface HireClipperButtonProps {
  /** The clipper's user id. */
  clipperId: string;
  /** Who is hired, for the button's accessible name where several buttons share a screen (the feed). */
  clipperName?: string | undefined;
  size?: ButtonSize;
  className?: string;
}

/**
 * 'Hire Clipper' (spec 02 §2.7, §6; ADR 0027): shown by the feed cards and the clipper profile for a
 * gold clipper only (lib/gold-tier.ts). Pressing it opens the hire dialog, loading its code first.
 */
export function HireClipperButton({ clipperId, clipperName, size = 'sm', className }: HireClipperButtonProps) {
  const { toast } = useToast();
  const [HireDialog, setHireDialog] = useState<ComponentType<HireDialogProps> | null>(() => loaded);
  const [opening, setOpening] = useState(false);
  const [open, setOpen] = useState(false);

  const press = async () => {
    if (HireDialog) {
      setOpen(true);
      return;
    }
    setOpening(true);
    try {
      const module = await loadHireDialog();
      setHireDialog(() => module.default);
      setOpen(true);
    } catch {
      toast({ title: 'Error', description: 'The hire form could not be loaded. Please try again.', variant: 'destructive' });
    } finally {
      setOpening(false);
    }
  };

  return (
    <>
      <Button
        size={size}
        className={className}
        aria-haspopup="dialog"
        aria-label={clipperName ? `Hire Clipper ${clipperName}` : undefined}
        loading={opening}
        onPointerEnter={warm}
        onFocus={warm}
        onClick={() => void press()}
      >
        Hire Clipper
      </Button>
      {HireDialog ? <HireDialog clipperId={clipperId} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
