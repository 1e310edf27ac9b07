// @clipit/router: the site's router (docs/adr/0023). The names and behaviour of what the apps used of
// react-router (createBrowserRouter, RouterProvider, Outlet, Link, NavLink and the hooks), in a few KB.
export {
  createBrowserHistory,
  createMemoryHistory,
  resolveTo,
  type Action,
  type History,
  type Location,
  type NavigateOptions,
  type To,
} from './history.js';
export { matchPath, matchRoutes, type Params, type RouteMatch, type RouteObject } from './match.js';
export {
  createBrowserRouter,
  createMemoryRouter,
  MemoryRouter,
  Outlet,
  Route,
  RouterProvider,
  Routes,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
  type DataRouter,
  type NavigateFunction,
  type Navigation,
  type SetSearchParams,
  type UIMatch,
} from './router.js';
export { isActivePath, Link, NavLink, type LinkProps, type NavLinkProps, type NavLinkRenderProps } from './links.js';
