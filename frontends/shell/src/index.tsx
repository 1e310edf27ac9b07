// The shell's entry. Every shared module (React, the router, the UI kit, …) is `eager` in the shell: it
// is in this entry's own file, provided to the remotes from here, so the page needs no async boundary
// and no second round trip for the shell's code before it can render (docs/adr/0023).
import './bootstrap.js';
