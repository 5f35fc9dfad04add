import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Importing the package defines <streamcart-checkout> (and types it for JSX).
import '@streamcart/widget';
import { App } from './App';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
