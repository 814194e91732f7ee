import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useDatasets } from '../state/datasets';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

/** A quiet moment before the service worker is installed, and after a read ends. */
const IDLE_MS = 2000;

/**
 * The built app caches itself for offline use (vite.config.ts serviceWorker); the dev server has none.
 * Installing fetches and stores every file of the app, so it waits for a moment when no crawl is being
 * read: a drop right after the page opened shared the two cores with it (0.18–0.25 s of CPU in the
 * first third of docsite's read, measured with test/bench/profile-ingest.ts).
 */
function registerWhenIdle(): void {
  const check = () => {
    if (useDatasets.getState().job !== null) {
      const stop = useDatasets.subscribe((s) => {
        if (s.job !== null) return;
        stop();
        setTimeout(check, IDLE_MS);
      });
      return;
    }
    navigator.serviceWorker.register('./sw.js').catch(() => {
      // Without it the app works as before, online.
    });
  };
  setTimeout(check, IDLE_MS);
}

if (import.meta.env.PROD && 'serviceWorker' in navigator) window.addEventListener('load', registerWhenIdle);
