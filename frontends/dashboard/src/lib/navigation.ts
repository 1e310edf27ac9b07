// Full-page navigations (spec 02 §2.1: /api/login, and /clippers/dashboard for a signed-in visitor),
// behind one object so component tests can observe them.
export const fullNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

export const CLIPPER_DASHBOARD = '/clippers/dashboard';
/** Spec 02 §2.1: logout is a full-page navigation (the gateway ends the session and redirects), as the shell's header does it. */
export const LOGOUT_HREF = '/api/logout';
export const LOGIN_PAGE = '/login';
/** The public remote's submit page: where the Submit New Clip tab sends a clipper when the form cannot be loaded here. */
export const SUBMIT_PAGE = '/submit';
