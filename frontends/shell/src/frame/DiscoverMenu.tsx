// The header's Discover dropdown: a WAI-ARIA menu button. Enter, Space, click or ArrowDown open it on
// the first item, ArrowUp on the last; arrows wrap, Home/End jump; Escape closes it and returns focus
// to the button; Tab, a click outside or choosing an item closes it.
import { cn } from '@clipit/ui';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from '@clipit/router';
import { DISCOVER_LINKS, isDiscoverActive, isWithin } from '../nav/navigation.js';
import { ChevronDownIcon } from './icons.js';

export function DiscoverMenu() {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLAnchorElement | null)[]>([]);
  const menuId = useId();
  const { pathname } = useLocation();

  useEffect(() => {
    if (open) items.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(DISCOVER_LINKS.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const last = DISCOVER_LINKS.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focusIndex === last ? 0 : focusIndex + 1,
      ArrowUp: focusIndex === 0 ? last : focusIndex - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      setFocusIndex(next); // the effect above moves the focus
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className="clipit-menu" ref={container}>
      <button
        ref={button}
        type="button"
        className={cn('clipit-nav-link', isDiscoverActive(pathname) && 'clipit-nav-link--active')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        Discover
        <ChevronDownIcon />
      </button>
      {open && (
        <ul id={menuId} role="menu" aria-label="Discover" className="clipit-menu__list" onKeyDown={onMenuKeyDown}>
          {DISCOVER_LINKS.map((link, index) => (
            <li key={link.to} role="none">
              <Link
                ref={(element) => {
                  items.current[index] = element;
                }}
                to={link.to}
                role="menuitem"
                tabIndex={index === focusIndex ? 0 : -1}
                className="clipit-menu__item"
                aria-current={isWithin(pathname, link.to) ? 'page' : undefined}
                onClick={() => close(false)}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
