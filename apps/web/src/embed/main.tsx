import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { embedClient } from './embed-client';
import { EmbedApp } from './embed-app';
import { embedLanguage, textsFor } from './embed-texts';
import './embed.css';

/**
 * The embeddable chat's entry: its own small bundle (vite.embed.config.ts), loaded by the iframe page
 * the API serves at /embed/{token} (with the chatbot's frame-ancestors). No router, no app shell.
 */
const root = document.getElementById('embed-root');
if (root?.dataset.token) {
  const params = new URLSearchParams(window.location.search);
  const language = embedLanguage(params.get('lang'), navigator.languages);
  document.documentElement.lang = language;
  const theme = params.get('theme');
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const applyTheme = () =>
    document.documentElement.classList.toggle(
      'dark',
      theme === 'dark' || (theme !== 'light' && media.matches),
    );
  applyTheme();
  media.addEventListener('change', applyTheme);
  createRoot(root).render(
    <StrictMode>
      <EmbedApp
        client={embedClient(root.dataset.token, window.location.href)}
        token={root.dataset.token}
        texts={textsFor(language)}
        framed={params.get('framed') === '1' && window.parent !== window}
      />
    </StrictMode>,
  );
}
