// Stylesheets are imported for their side effect; rspack bundles them (type css/auto).
declare module '*.css';
