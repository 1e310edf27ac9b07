import { createContext, forwardRef, useContext, useId, type ButtonHTMLAttributes, type HTMLAttributes, type KeyboardEvent } from 'react';
import { cn } from './cn.js';
import { useControllableState } from './internal/use-controllable-state.js';

type Orientation = 'horizontal' | 'vertical';

interface TabsContextValue {
  baseId: string;
  value: string;
  select: (value: string) => void;
  orientation: Orientation;
  activationMode: 'automatic' | 'manual';
}

const TabsContext = createContext<TabsContextValue | null>(null);

function useTabs(part: string): TabsContextValue {
  const context = useContext(TabsContext);
  if (!context) throw new Error(`<${part}> must be used inside <Tabs>.`);
  return context;
}

// Ids may hold any character but whitespace.
const idPart = (value: string) => value.replace(/\s/g, '_');
const tabId = (baseId: string, value: string) => `${baseId}-tab-${idPart(value)}`;
const panelId = (baseId: string, value: string) => `${baseId}-panel-${idPart(value)}`;

type TabsState =
  | { value: string; onValueChange: (value: string) => void; defaultValue?: never }
  | { defaultValue: string; onValueChange?: (value: string) => void; value?: never };

export type TabsProps = Omit<HTMLAttributes<HTMLDivElement>, 'defaultValue' | 'onChange'> &
  TabsState & {
    orientation?: Orientation;
    /**
     * automatic (default): arrow keys select the tab they move to. manual: they only move focus;
     * Enter or Space selects (for panels that are slow to render).
     */
    activationMode?: 'automatic' | 'manual';
  };

/**
 * Tabs after the WAI-ARIA Authoring Practices: one tab stop for the whole tab list (roving
 * tabindex), Left/Right (Up/Down when vertical) move between tabs and wrap, Home/End jump to the
 * ends, disabled tabs are skipped, each panel is labelled by its tab.
 */
export const Tabs = forwardRef<HTMLDivElement, TabsProps>(function Tabs(
  { value: valueProp, defaultValue, onValueChange, orientation = 'horizontal', activationMode = 'automatic', className, ...props },
  ref,
) {
  const baseId = useId();
  const [value, select] = useControllableState(valueProp, defaultValue ?? '', onValueChange);
  return (
    <TabsContext.Provider value={{ baseId, value, select, orientation, activationMode }}>
      <div ref={ref} className={cn('clip-tabs', `clip-tabs--${orientation}`, className)} data-orientation={orientation} {...props} />
    </TabsContext.Provider>
  );
});

/** The row of tabs. Give it an aria-label (or aria-labelledby) saying what the tabs switch. */
export const TabsList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function TabsList(
  { className, onKeyDown, ...props },
  ref,
) {
  const { orientation, activationMode, select } = useTabs('TabsList');

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const list = event.currentTarget;
    // Only this list's own enabled tabs, not those of tabs nested in a panel.
    const tabs = Array.from(list.querySelectorAll<HTMLButtonElement>('[role="tab"]')).filter(
      (tab) => !tab.disabled && tab.closest('[role="tablist"]') === list,
    );
    const current = tabs.indexOf(event.target as HTMLButtonElement);
    if (current === -1) return;
    const [previousKey, nextKey] = orientation === 'vertical' ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight'];
    let next: number;
    switch (event.key) {
      case previousKey:
        next = (current - 1 + tabs.length) % tabs.length;
        break;
      case nextKey:
        next = (current + 1) % tabs.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = tabs.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    const target = tabs[next]!;
    target.focus();
    if (activationMode === 'automatic' && target.dataset.value !== undefined) select(target.dataset.value);
  };

  return (
    <div
      ref={ref}
      role="tablist"
      aria-orientation={orientation}
      className={cn('clip-tabs__list', className)}
      onKeyDown={handleKeyDown}
      {...props}
    />
  );
});

export interface TabsTriggerProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'value'> {
  value: string;
}

export const TabsTrigger = forwardRef<HTMLButtonElement, TabsTriggerProps>(function TabsTrigger(
  { value, className, onClick, ...props },
  ref,
) {
  const { baseId, value: selectedValue, select } = useTabs('TabsTrigger');
  const selected = value === selectedValue;
  return (
    <button
      ref={ref}
      type="button"
      role="tab"
      id={tabId(baseId, value)}
      aria-selected={selected}
      aria-controls={panelId(baseId, value)}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      data-value={value}
      className={cn('clip-tabs__trigger', className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) select(value);
      }}
      {...props}
    />
  );
});

export interface TabsContentProps extends HTMLAttributes<HTMLDivElement> {
  value: string;
  /** Keep the content mounted (hidden) while another tab is selected, e.g. to keep form input. */
  forceMount?: boolean;
}

/**
 * A tab's panel. Inactive panels stay in the DOM (so every tab's aria-controls resolves) but are
 * hidden and, unless forceMount, empty.
 */
export const TabsContent = forwardRef<HTMLDivElement, TabsContentProps>(function TabsContent(
  { value, forceMount = false, className, children, ...props },
  ref,
) {
  const { baseId, value: selectedValue } = useTabs('TabsContent');
  const selected = value === selectedValue;
  return (
    <div
      ref={ref}
      role="tabpanel"
      id={panelId(baseId, value)}
      aria-labelledby={tabId(baseId, value)}
      tabIndex={0}
      hidden={!selected}
      data-state={selected ? 'active' : 'inactive'}
      className={cn('clip-tabs__content', className)}
      {...props}
    >
      {selected || forceMount ? children : null}
    </div>
  );
});
