import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { DEFAULT_PATH, preloadAreaAt } from './app/routes';
import './ui/theme.css';
import './app/frame.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// No address means the default screen, written now rather than redirected to by the router once it starts: such a
// redirect replaces whatever address was set in between (a deep link, or a test driving the page).
if (['', '#', '#/'].includes(window.location.hash))
  window.history.replaceState(window.history.state, '', `#${DEFAULT_PATH}`);

// The first screen's code comes before the first render (tens of milliseconds), so the app opens on the screen
// rather than on its loading placeholder.
void preloadAreaAt(window.location.hash.replace(/^#/, '').split('?')[0]!).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
