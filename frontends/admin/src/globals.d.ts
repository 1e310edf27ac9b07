/** Replaced at build time (DefinePlugin in @clipit/frontend-build): this app's version, then CLIPIT_BUILD_ID or the build's time (`0.1.0+20261123T101500Z`). */
declare const __CLIPIT_BUILD_ID__: string;

/** Stylesheets imported by screens (rspack's css/auto: global CSS, emitted as a chunk beside the screen). */
declare module '*.css';
