// The site header (spec 01 §2): on wide screens the navigation, the outside links, the account link
// and the theme toggle in one bar; on narrower ones the brand, the theme toggle and a menu button that
// opens the same navigation in a drawer (a modal dialog: focus moves in, stays in, and returns).
import { useCurrentUser } from '@clipit/web-api';
import { Button, cn, Dialog, DialogTitle } from '@clipit/ui';
import { useState } from 'react';
import { Link, NavLink } from '@clipit/router';
import { CLIENT_SERVICES_LINK, DASHBOARD_LINK, DISCOVER_LINKS, PRIMARY_LINKS, type NavLinkItem } from '../nav/navigation.js';
import { AccountLink } from './AccountLinks.js';
import { DiscoverMenu } from './DiscoverMenu.js';
import { MenuIcon } from './icons.js';
import { OutsideLinks } from './OutsideLinks.js';
import { ThemeToggle } from './ThemeToggle.js';

const navClass = ({ isActive }: { isActive: boolean }) => cn('clipit-nav-link', isActive && 'clipit-nav-link--active');

function Item({ link, onNavigate }: { link: NavLinkItem; onNavigate?: () => void }) {
  return (
    <li>
      <NavLink to={link.to} end={link.to === '/'} className={navClass} onClick={onNavigate}>
        {link.label}
      </NavLink>
    </li>
  );
}

export function SiteHeader() {
  const { isSignedIn, isPending } = useCurrentUser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <div className="clipit-header">
      <Link to="/" className="clipit-header__brand">
        CLIP IT
      </Link>

      <nav aria-label="Main" className="clipit-header__nav">
        <ul className="clipit-header__links">
          {PRIMARY_LINKS.map((link) => (
            <Item key={link.to} link={link} />
          ))}
          <li>
            <DiscoverMenu />
          </li>
          <Item link={CLIENT_SERVICES_LINK} />
          {isSignedIn && <Item link={DASHBOARD_LINK} />}
        </ul>
      </nav>

      <div className="clipit-header__actions">
        <OutsideLinks className="clipit-header__outside" />
        <AccountLink signedIn={isSignedIn} pending={isPending} className="clipit-header__account" />
        <ThemeToggle />
        <Button
          variant="ghost"
          size="icon"
          className="clipit-header__menu-button"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          onClick={() => setDrawerOpen(true)}
        >
          <MenuIcon />
        </Button>
      </div>

      <Dialog
        open={drawerOpen}
        onOpenChange={setDrawerOpen}
        className="clipit-drawer"
        overlayClassName="clipit-drawer-overlay"
        closeLabel="Close menu"
      >
        <DialogTitle>Menu</DialogTitle>
        <nav aria-label="Menu" className="clipit-drawer__nav">
          <ul className="clipit-drawer__links">
            {PRIMARY_LINKS.map((link) => (
              <Item key={link.to} link={link} onNavigate={closeDrawer} />
            ))}
            <li>
              <span className="clipit-drawer__group" id="clipit-drawer-discover">
                Discover
              </span>
              <ul aria-labelledby="clipit-drawer-discover" className="clipit-drawer__sublinks">
                {DISCOVER_LINKS.map((link) => (
                  <Item key={link.to} link={link} onNavigate={closeDrawer} />
                ))}
              </ul>
            </li>
            <Item link={CLIENT_SERVICES_LINK} onNavigate={closeDrawer} />
            {isSignedIn && <Item link={DASHBOARD_LINK} onNavigate={closeDrawer} />}
          </ul>
        </nav>
        <AccountLink signedIn={isSignedIn} pending={isPending} className="clip-btn--block" onNavigate={closeDrawer} />
        <OutsideLinks className="clipit-drawer__outside" block />
      </Dialog>
    </div>
  );
}
