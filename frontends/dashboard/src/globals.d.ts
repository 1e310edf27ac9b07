/** Replaced at build time (DefinePlugin in @clipit/frontend-build): CLIPIT_BUILD_ID, else when the build was made. */
declare const __CLIPIT_BUILD_ID__: string;

/** Stylesheets imported by screens (rspack's css/auto: global CSS, emitted as a chunk beside the screen). */
declare module '*.css';
