/** Replaced at build time (DefinePlugin in @clipit/frontend-build): CLIPIT_BUILD_ID, else when the build was made. */
declare const __CLIPIT_BUILD_ID__: string;
