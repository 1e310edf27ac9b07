// The shell: the Module Federation host. It owns the page, the router and the frame, and finds the
// remotes at run time (GET /remotes.json), so it declares none here.
import { frontendConfig } from '@clipit/frontend-build';

export default (_env, argv) => frontendConfig({ name: 'shell', dir: import.meta.dirname }, argv);
