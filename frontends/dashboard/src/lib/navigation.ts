// Full-page navigations (spec 02 §2.1: /api/login, and /clippers/dashboard for a signed-in visitor),
// behind one object so component tests can observe them.
export const fullNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

export const CLIPPER_DASHBOARD = '/clippers/dashboard';
export const TWITTER_SIGN_IN = '/api/login';
