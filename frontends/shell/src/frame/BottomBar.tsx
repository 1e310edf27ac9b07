// The mobile bottom bar (spec 01 §2): Clips, Add, Discover, Login; hidden from 768 px up (CSS). The
// current page among /feed, /discover and /login is highlighted and marked aria-current="page".
import { cn } from '@clipit/ui';
import type { ReactNode } from 'react';
import { Link, useLocation } from '@clipit/router';
import { activeBottomTab, BOTTOM_TAB_PATHS, type BottomTab } from '../nav/navigation.js';
import { useAddClip } from './AddClip.js';
import { ClipsIcon, CompassIcon, PlusIcon, UserIcon } from './icons.js';

function TabLink({ tab, active, icon, children }: { tab: BottomTab; active: BottomTab | null; icon: ReactNode; children: ReactNode }) {
  const current = tab === active;
  return (
    <li>
      <Link
        to={BOTTOM_TAB_PATHS[tab]}
        className={cn('clipit-bottom-bar__item', current && 'clipit-bottom-bar__item--active')}
        aria-current={current ? 'page' : undefined}
      >
        {icon}
        <span>{children}</span>
      </Link>
    </li>
  );
}

export function BottomBar() {
  const active = activeBottomTab(useLocation().pathname);
  const addClip = useAddClip();
  return (
    <>
      <nav aria-label="Quick navigation" className="clipit-bottom-bar">
        <ul className="clipit-bottom-bar__list">
          <TabLink tab="feed" active={active} icon={<ClipsIcon />}>
            Clips
          </TabLink>
          <li>
            <button
              type="button"
              className="clipit-bottom-bar__item clipit-bottom-bar__add"
              onClick={addClip.open}
              aria-busy={addClip.loading || undefined}
              aria-haspopup="dialog"
            >
              <PlusIcon />
              <span>Add</span>
            </button>
          </li>
          <TabLink tab="discover" active={active} icon={<CompassIcon />}>
            Discover
          </TabLink>
          <TabLink tab="login" active={active} icon={<UserIcon />}>
            Login
          </TabLink>
        </ul>
      </nav>
      {addClip.dialog}
    </>
  );
}
