import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode, useRef, useState, type ReactNode } from 'react';
import { Button } from './button.js';
import { Dialog, DialogDescription, DialogFooter, DialogTitle } from './dialog.js';
import { Input } from './input.js';
import { ToastProvider } from './toast.js';

function AddClip({ children, onOpenChange }: { children?: ReactNode; onOpenChange?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    onOpenChange?.(next);
    setOpen(next);
  };
  return (
    <>
      <button type="button">Before</button>
      <Button onClick={() => setOpen(true)}>Add clip</Button>
      <Dialog open={open} onOpenChange={change} className="add-clip">
        <DialogTitle>Add a clip</DialogTitle>
        <DialogDescription>Share a post from X.</DialogDescription>
        {children ?? (
          <>
            <Input label="Clip title" />
            <Input label="Twitter/X post URL" />
          </>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => change(false)}>
            Cancel
          </Button>
          <Button type="submit">Submit</Button>
        </DialogFooter>
      </Dialog>
    </>
  );
}

const openDialog = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'Add clip' }));
  return screen.getByRole('dialog');
};

describe('Dialog', () => {
  it('renders nothing while closed', () => {
    render(<AddClip />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is a labelled, described modal dialog portalled to the body', async () => {
    const user = userEvent.setup();
    const { container } = render(<AddClip />);
    const dialog = await openDialog(user);
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleName('Add a clip');
    expect(dialog).toHaveAccessibleDescription('Share a post from X.');
    expect(dialog).toHaveClass('clip-dialog', 'add-clip');
    expect(container.contains(dialog)).toBe(false);
    expect(document.body.contains(dialog)).toBe(true);
    expect(screen.getByRole('heading', { level: 2, name: 'Add a clip' })).toBeInTheDocument();
  });

  it('moves focus to the first field on open', async () => {
    const user = userEvent.setup();
    render(<AddClip />);
    await openDialog(user);
    expect(screen.getByLabelText('Clip title')).toHaveFocus();
  });

  it('traps Tab and Shift+Tab inside, the close button included', async () => {
    const user = userEvent.setup();
    render(<AddClip />);
    await openDialog(user);
    const order = ['Clip title', 'Twitter/X post URL', 'Cancel', 'Submit', 'Close'];
    const at = (name: string) =>
      name.startsWith('Clip') || name.startsWith('Twitter') ? screen.getByLabelText(name) : screen.getByRole('button', { name });

    for (const name of [...order.slice(1), order[0]!]) {
      await user.tab();
      expect(at(name)).toHaveFocus();
    }
    await user.tab({ shift: true });
    expect(at('Close')).toHaveFocus();
    await user.tab({ shift: true });
    expect(at('Submit')).toHaveFocus();
  });

  it('pulls focus back when something outside tries to take it', async () => {
    const user = userEvent.setup();
    render(<AddClip />);
    await openDialog(user);
    await user.tab(); // to the URL field
    screen.getByRole('button', { name: 'Before', hidden: true }).focus();
    expect(screen.getByLabelText('Twitter/X post URL')).toHaveFocus();
  });

  it('Escape closes it and focus returns to the opener', async () => {
    const user = userEvent.setup();
    const onOpenChange = jest.fn();
    render(<AddClip onOpenChange={onOpenChange} />);
    await openDialog(user);
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add clip' })).toHaveFocus();
  });

  it('the close button and an overlay click close it too, restoring focus', async () => {
    const user = userEvent.setup();
    render(<AddClip />);
    await openDialog(user);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add clip' })).toHaveFocus();

    await openDialog(user);
    await user.click(document.querySelector('.clip-dialog-overlay')!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add clip' })).toHaveFocus();
  });

  it('a click inside does not close it', async () => {
    const user = userEvent.setup();
    render(<AddClip />);
    const dialog = await openDialog(user);
    await user.click(screen.getByText('Share a post from X.'));
    expect(dialog).toBeInTheDocument();
  });

  it('locks page scroll while open and restores it after', async () => {
    const user = userEvent.setup();
    document.body.style.overflow = 'scroll';
    render(<AddClip />);
    await openDialog(user);
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(document.body.style.overflow).toBe('scroll');
    document.body.style.overflow = '';
  });

  it('with nested dialogs Escape closes only the innermost', async () => {
    const user = userEvent.setup();
    function Nested() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(false);
      return (
        <Dialog open={outer} onOpenChange={setOuter}>
          <DialogTitle>Outer</DialogTitle>
          <Button onClick={() => setInner(true)}>Open inner</Button>
          <Dialog open={inner} onOpenChange={setInner} role="alertdialog">
            <DialogTitle>Inner</DialogTitle>
            <Button>Confirm</Button>
          </Dialog>
        </Dialog>
      );
    }
    render(<Nested />);
    await user.click(screen.getByRole('button', { name: 'Open inner' }));
    expect(screen.getByRole('alertdialog', { name: 'Inner' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open inner' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('focuses initialFocusRef, or the dialog itself when nothing inside is focusable', async () => {
    const user = userEvent.setup();
    function WithInitial() {
      const [open, setOpen] = useState(false);
      const submit = useRef<HTMLButtonElement>(null);
      return (
        <>
          <Button onClick={() => setOpen(true)}>Open</Button>
          <Dialog open={open} onOpenChange={setOpen} initialFocusRef={submit}>
            <DialogTitle>Confirm</DialogTitle>
            <Input label="Name" />
            <Button ref={submit}>Go live</Button>
          </Dialog>
        </>
      );
    }
    const { unmount } = render(<WithInitial />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('button', { name: 'Go live' })).toHaveFocus();
    unmount();

    render(
      <Dialog open onOpenChange={() => undefined} hideCloseButton aria-label="Note">
        Nothing to press.
      </Dialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Note' });
    expect(dialog).toHaveFocus();
    await user.tab();
    expect(dialog).toHaveFocus();
  });

  it('behaves the same under StrictMode (effects run twice on mount)', async () => {
    const user = userEvent.setup();
    document.body.style.overflow = '';
    render(
      <StrictMode>
        <AddClip />
      </StrictMode>,
    );
    await openDialog(user);
    expect(screen.getByLabelText('Clip title')).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add clip' })).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('lets F8 take focus to the notification region above it', async () => {
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <AddClip />
      </ToastProvider>,
    );
    await openDialog(user);
    await user.keyboard('{F8}');
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toHaveFocus();
  });
});
