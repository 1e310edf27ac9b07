/** Which build of this remote is running: the shell publishes it on the page (`<meta name="clipit-remote:admin">`). */
export const name = 'admin';
export const buildId: string = __CLIPIT_BUILD_ID__;
