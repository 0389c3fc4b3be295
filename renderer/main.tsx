import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadAreaAt } from './app/routes';
import './ui/theme.css';
import './app/frame.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first screen's code comes before the first render: rendered without it, the screen would show a placeholder
// that React keeps for at least 300 ms, where the code itself takes tens of milliseconds.
void preloadAreaAt(window.location.hash.replace(/^#/, '').split('?')[0] || '/').then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
