/** Which build of this remote is running: the shell publishes it on the page (`<meta name="clipit-remote:public">`). */
export const name = 'public';
export const buildId: string = __CLIPIT_BUILD_ID__;
