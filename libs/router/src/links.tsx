// Links that navigate inside the page: a real <a href> (open in a new tab, copy, crawl), whose plain
// left click is taken over by the router. NavLink also says whether it points at the current page.
import { type AnchorHTMLAttributes, type MouseEvent, type ReactNode, type Ref } from 'react';
import { resolveTo, type To } from './history.js';
import { useLocationState } from './router.js';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
}

/** Whether a click is the router's to handle: a plain left click on a link that opens here. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { history } = useLocationState();
  const href = history.createHref(to);
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainClick(event, target) || rest.download !== undefined) return;
        event.preventDefault();
        if (replace) history.replace(to, state);
        else history.push(to, state);
      }}
    />
  );
}

export interface NavLinkRenderProps {
  isActive: boolean;
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'children'> {
  /** Active only on exactly this path, not on the paths below it. */
  end?: boolean;
  className?: string | ((props: NavLinkRenderProps) => string | undefined);
  children?: ReactNode | ((props: NavLinkRenderProps) => ReactNode);
}

/** Whether `target` (a path) is the current page: the same path, or (without `end`) a path below it. */
export function isActivePath(target: string, current: string, end = false): boolean {
  const t = target.toLowerCase().replace(/\/+$/, '') || '/';
  const c = current.toLowerCase().replace(/\/+$/, '') || '/';
  if (t === c) return true;
  return !end && t !== '/' && c.startsWith(`${t}/`);
}

/**
 * A link that knows whether it points at the current page (`aria-current="page"` and `isActive`): the
 * page being navigated to, so a tapped link is marked at once, before that page has loaded.
 */
export function NavLink({ to, end, className, children, ...rest }: NavLinkProps) {
  const { location } = useLocationState();
  const isActive = isActivePath(resolveTo(to, location).pathname, location.pathname, end);
  const props = { isActive };
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className(props) : className}
    >
      {typeof children === 'function' ? children(props) : children}
    </Link>
  );
}
