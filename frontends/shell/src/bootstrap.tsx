import { createQueryClient } from '@clipit/web-api';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createSiteStore } from './federation/site.js';
import { Shell } from './Shell.js';
import './shell.css';

const store = createSiteStore();
void store.start();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <Shell store={store} queryClient={createQueryClient()} />
  </StrictMode>,
);
