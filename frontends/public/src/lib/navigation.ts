// Full-page navigations (spec 01 §2: /auth/twitter, /api/login, /api/logout, and /clippers/dashboard
// after signing in), behind one function so component tests can observe them.
export const fullNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Where the browser goes after login or sign-up succeeds. */
export const AFTER_SIGN_IN = '/clippers/dashboard';
/** How long the success toast ('… Redirecting...') shows before the page changes. */
export const REDIRECT_DELAY_MS = 1000;
