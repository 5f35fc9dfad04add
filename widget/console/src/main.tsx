import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { preferredLocale, switchLocale } from './messages';
import './styles.css';

// The operator's language is loaded before the first render (a chunk for any but English), so no
// screen flashes English first; a table that fails to load leaves the console in English.
void switchLocale(preferredLocale())
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
