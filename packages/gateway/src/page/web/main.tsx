import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRemoteInbox } from '@waitfor/http/client';
import { PageApp } from './PageApp.js';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');
// The page lives under /<token>/: its inbox endpoint is beside it (the token is the path's first segment).
const token = location.pathname.split('/')[1] ?? '';
createRoot(root).render(
  <StrictMode>
    <PageApp inbox={createRemoteInbox({ url: `/${token}/api/inbox` })} />
  </StrictMode>,
);
