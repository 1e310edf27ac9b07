import { createQueryClient } from '@clipit/web-api';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createSiteStore } from './federation/site.js';
import { Shell } from './Shell.js';
import './shell.css';

const store = createSiteStore();
void store.start();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
// As a transition: React renders the first page in slices between frames instead of one long task.
startTransition(() =>
  root.render(
    <StrictMode>
      <Shell store={store} queryClient={createQueryClient()} />
    </StrictMode>,
  ),
);
