// The async boundary Module Federation needs: the shared modules (React, the router, …) are negotiated
// with the remotes before any code that imports them runs.
void import('./bootstrap.js');
