import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRemoteInbox } from '@waitfor/http/client';
import { App } from './App.js';
import { HostedApp } from './HostedApp.js';
import { loadMode } from './exampleConfig.js';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');
// The host says which mode it runs; `?mode=page` runs the MCP clients in this page all the same.
const asked = new URLSearchParams(location.search).get('mode');
const mode = asked === 'page' ? Promise.resolve('page' as const) : loadMode();
void mode.then((chosen) =>
  createRoot(root).render(
    <StrictMode>
      {/* One remote inbox for the page's life: its event stream reconnects by itself. */}
      {chosen === 'hosted' ? (
        <HostedApp inbox={createRemoteInbox({ url: '/api/inbox' })} />
      ) : (
        <App />
      )}
    </StrictMode>,
  ),
);
