/** Which build of this remote is running: the shell publishes it on the page (`<meta name="clipit-remote:dashboard">`). */
export const name = 'dashboard';
export const buildId: string = __CLIPIT_BUILD_ID__;
