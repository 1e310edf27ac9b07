import {
  createContext,
  forwardRef,
  useContext,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { cn } from './cn.js';
import { activeElement, tabbables } from './internal/focus.js';

export interface DialogProps extends Omit<HTMLAttributes<HTMLDivElement>, 'role'> {
  open: boolean;
  /** Called with false when the dialog asks to close (Escape, overlay click, close button). */
  onOpenChange: (open: boolean) => void;
  /** `alertdialog` for confirmations that interrupt (then an overlay click does not close). */
  role?: 'dialog' | 'alertdialog';
  /** What gets focus on open; by default the first focusable element, else the dialog itself. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  closeOnOverlayClick?: boolean;
  /** Hide the built-in close (×) button, e.g. when the footer has a Cancel button. */
  hideCloseButton?: boolean;
  /** Accessible name of the close button. */
  closeLabel?: string;
  /** Where the dialog is portalled; document.body by default. */
  container?: Element | null;
  overlayClassName?: string;
  children?: ReactNode;
}

interface DialogContextValue {
  titleId: string;
  descriptionId: string;
  register: (part: 'title' | 'description') => () => void;
}

const DialogContext = createContext<DialogContextValue | null>(null);

function useDialogContext(part: string): DialogContextValue {
  const context = useContext(DialogContext);
  if (!context) throw new Error(`<${part}> must be used inside <Dialog>.`);
  return context;
}

// Open dialogs, innermost last: only the top one reacts to Escape and keeps focus.
const stack: symbol[] = [];
const isTop = (key: symbol) => stack[stack.length - 1] === key;

// Scroll lock shared by nested dialogs; the page scrolls again when the last one closes.
let locks = 0;
let restoreBody: (() => void) | null = null;

function lockScroll(): () => void {
  if (locks++ === 0) {
    const { body, documentElement } = document;
    const { overflow, paddingRight } = body.style;
    // Keep the layout from shifting when the scrollbar disappears.
    const scrollbar = window.innerWidth - documentElement.clientWidth;
    body.style.overflow = 'hidden';
    if (scrollbar > 0) {
      const current = Number.parseFloat(window.getComputedStyle(body).paddingRight) || 0;
      body.style.paddingRight = `${current + scrollbar}px`;
    }
    restoreBody = () => {
      body.style.overflow = overflow;
      body.style.paddingRight = paddingRight;
    };
  }
  return () => {
    if (--locks === 0) {
      restoreBody?.();
      restoreBody = null;
    }
  };
}

// Focus may leave a modal dialog for the notification region (F8), which sits above it.
const FOCUS_TRAP_EXEMPT = '[data-clip-toast-region]';

/**
 * A modal dialog, controlled by `open` / `onOpenChange`. While open it is portalled to the body,
 * labelled by its DialogTitle and described by its DialogDescription, keeps Tab and Shift+Tab
 * inside, closes on Escape, locks page scroll, and on close returns focus to what had it before.
 */
export const Dialog = forwardRef<HTMLDivElement, DialogProps>(function Dialog({ open, ...props }, ref) {
  if (!open || typeof document === 'undefined') return null;
  return <DialogContent ref={ref} {...props} />;
});

const DialogContent = forwardRef<HTMLDivElement, Omit<DialogProps, 'open'>>(function DialogContent(
  {
    onOpenChange,
    role = 'dialog',
    initialFocusRef,
    closeOnOverlayClick = role === 'dialog',
    hideCloseButton = false,
    closeLabel = 'Close',
    container,
    overlayClassName,
    className,
    children,
    onKeyDown,
    ...props
  },
  ref,
) {
  const contentRef = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => contentRef.current!, []);
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const descriptionId = `${baseId}-description`;
  const [parts, setParts] = useState({ title: 0, description: 0 });
  // The opener is read during the first render, before an autoFocus child inside can take focus.
  const [opener] = useState(activeElement);
  const onOpenChangeRef = useRef(onOpenChange);
  useLayoutEffect(() => {
    onOpenChangeRef.current = onOpenChange;
  });

  const [context] = useState<DialogContextValue>(() => ({
    titleId,
    descriptionId,
    register: (part) => {
      setParts((counts) => ({ ...counts, [part]: counts[part] + 1 }));
      return () => setParts((counts) => ({ ...counts, [part]: counts[part] - 1 }));
    },
  }));

  // Open: join the stack, lock scroll, move focus in. Close: undo all of it, focus back to the opener.
  useLayoutEffect(() => {
    const content = contentRef.current!;
    const key = Symbol('dialog');
    stack.push(key);
    const unlock = lockScroll();
    if (!content.contains(document.activeElement)) {
      (initialFocusRef?.current ?? tabbables(content)[0] ?? content).focus();
    }

    let lastInside: HTMLElement | null = activeElement();
    const onFocusIn = (event: FocusEvent) => {
      if (!isTop(key)) return;
      const target = event.target as Node;
      if (content.contains(target)) {
        lastInside = target as HTMLElement;
      } else if (!(target instanceof Element && target.closest(FOCUS_TRAP_EXEMPT))) {
        (lastInside?.isConnected ? lastInside : (tabbables(content)[0] ?? content)).focus();
      }
    };
    const onDocumentKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isTop(key)) return;
      event.preventDefault();
      onOpenChangeRef.current(false);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onDocumentKeyDown);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onDocumentKeyDown);
      stack.splice(stack.indexOf(key), 1);
      unlock();
      if (opener?.isConnected) opener.focus();
    };
    // Once per opening: initialFocusRef and the opener matter at that moment only.
  }, []);

  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    if (event.key !== 'Tab' || event.defaultPrevented) return;
    const content = contentRef.current!;
    const items = tabbables(content);
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (!first || !last) {
      event.preventDefault();
      content.focus();
    } else if (event.shiftKey && (active === first || active === content)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <DialogContext.Provider value={context}>
      <div className="clip-dialog-layer">
        <div
          className={cn('clip-dialog-overlay', overlayClassName)}
          data-state="open"
          aria-hidden="true"
          onMouseDown={(event) => {
            if (event.target !== event.currentTarget) return;
            // No default focus change to <body>: focus goes back to the opener, or stays inside.
            event.preventDefault();
            if (closeOnOverlayClick) onOpenChange(false);
          }}
        />
        <div
          ref={contentRef}
          role={role}
          aria-modal="true"
          aria-labelledby={parts.title > 0 ? titleId : undefined}
          aria-describedby={parts.description > 0 ? descriptionId : undefined}
          tabIndex={-1}
          data-state="open"
          className={cn('clip-dialog', className)}
          onKeyDown={trapTab}
          {...props}
        >
          {children}
          {hideCloseButton ? null : (
            // Last in the DOM so the first field, not ×, gets focus on open; CSS puts it top right.
            <button type="button" className="clip-dialog__close" aria-label={closeLabel} onClick={() => onOpenChange(false)}>
              <svg
                viewBox="0 0 24 24"
                width="18"
                height="18"
                aria-hidden="true"
                focusable="false"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              >
                <path d="M18 6L6 18M6 6l12 12" />
              </svg>
            </button>
          )}
        </div>
      </div>
    </DialogContext.Provider>,
    container ?? document.body,
  );
});

function useRegister(part: 'title' | 'description', context: DialogContextValue) {
  const { register } = context;
  useLayoutEffect(() => register(part), [register, part]);
}

/** The dialog's heading (an <h2>); it names the dialog (aria-labelledby). */
export const DialogTitle = forwardRef<HTMLHeadingElement, HTMLAttributes<HTMLHeadingElement>>(function DialogTitle(
  { className, ...props },
  ref,
) {
  const context = useDialogContext('DialogTitle');
  useRegister('title', context);
  return <h2 ref={ref} id={context.titleId} className={cn('clip-dialog__title', className)} {...props} />;
});

/** A sentence under the title; it describes the dialog (aria-describedby). */
export const DialogDescription = forwardRef<HTMLParagraphElement, HTMLAttributes<HTMLParagraphElement>>(function DialogDescription(
  { className, ...props },
  ref,
) {
  const context = useDialogContext('DialogDescription');
  useRegister('description', context);
  return <p ref={ref} id={context.descriptionId} className={cn('clip-dialog__description', className)} {...props} />;
});

/** The row of actions at the bottom (stacked on narrow screens). */
export const DialogFooter = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function DialogFooter({ className, ...props }, ref) {
  return <div ref={ref} className={cn('clip-dialog__footer', className)} {...props} />;
});
