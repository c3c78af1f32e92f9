/*
 * Atelier chat bubble. Add to any page of an allowed origin:
 *   <script src="https://YOUR-ATELIER-API/embed.js" data-token="emb_…" async></script>
 * Optional: data-lang="en|fr", data-theme="light|dark|auto", data-position="right|left".
 * It adds a round button; the chat opens in a panel holding the iframe page /embed/{token}.
 * Plain ES2017, no dependency, styles set on the elements (nothing leaks into the page).
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var token = script.getAttribute('data-token');
  if (!token) {
    console.error('Atelier embed: add data-token="…" to the script tag.');
    return;
  }
  if (window.__atelierEmbed && window.__atelierEmbed[token]) return;
  window.__atelierEmbed = window.__atelierEmbed || {};
  window.__atelierEmbed[token] = true;

  var base = new URL('.', script.src);
  var frameOrigin = base.origin;
  var lang = (script.getAttribute('data-lang') || navigator.language || 'en').slice(0, 2).toLowerCase();
  if (lang !== 'fr') lang = 'en';
  var theme = script.getAttribute('data-theme') || 'auto';
  var side = script.getAttribute('data-position') === 'left' ? 'left' : 'right';
  var labels = {
    en: { open: 'Open the chat', close: 'Close the chat', title: 'Chat' },
    fr: { open: 'Ouvrir la discussion', close: 'Fermer la discussion', title: 'Discussion' },
  }[lang];
  var chatIcon =
    '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
  var closeIcon =
    '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>';

  function css(el, styles) {
    for (var key in styles) el.style.setProperty(key, styles[key]);
  }

  var button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('data-atelier-embed', 'bubble');
  button.setAttribute('aria-label', labels.open);
  button.setAttribute('aria-expanded', 'false');
  button.innerHTML = chatIcon;
  css(button, {
    position: 'fixed',
    bottom: '20px',
    width: '56px',
    height: '56px',
    'border-radius': '50%',
    border: 'none',
    padding: '0',
    margin: '0',
    cursor: 'pointer',
    display: 'flex',
    'align-items': 'center',
    'justify-content': 'center',
    color: '#ffffff',
    background: '#4f46e5',
    'box-shadow': '0 6px 20px rgba(15, 23, 42, 0.28)',
    'z-index': '2147483000',
    transition: 'transform 120ms ease',
  });
  button.style.setProperty(side, '20px');

  var panel = document.createElement('div');
  panel.setAttribute('data-atelier-embed', 'panel');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', labels.title);
  css(panel, {
    position: 'fixed',
    display: 'none',
    overflow: 'hidden',
    background: theme === 'dark' ? '#14151c' : '#ffffff',
    'box-shadow': '0 12px 40px rgba(15, 23, 42, 0.3)',
    'z-index': '2147483001',
  });

  var frame = null;
  var narrow = window.matchMedia('(max-width: 480px)');

  function layout() {
    if (narrow.matches) {
      // Phones: the whole screen; the chat's own header has the close button.
      css(panel, {
        top: '0',
        bottom: '0',
        left: '0',
        right: '0',
        width: '100%',
        height: '100%',
        'border-radius': '0',
      });
    } else {
      css(panel, {
        top: 'auto',
        bottom: '88px',
        width: '380px',
        height: 'min(620px, calc(100vh - 112px))',
        'border-radius': '14px',
        left: side === 'left' ? '20px' : 'auto',
        right: side === 'right' ? '20px' : 'auto',
      });
    }
    button.style.display = narrow.matches && isOpen() ? 'none' : 'flex';
  }

  function isOpen() {
    return panel.style.display !== 'none';
  }

  function open() {
    if (!frame) {
      frame = document.createElement('iframe');
      var src = new URL('embed/' + encodeURIComponent(token), base);
      src.searchParams.set('lang', lang);
      src.searchParams.set('theme', theme);
      src.searchParams.set('framed', '1');
      frame.src = src.href;
      frame.title = labels.title;
      frame.setAttribute('allow', 'clipboard-write');
      css(frame, { border: '0', width: '100%', height: '100%', display: 'block' });
      frame.addEventListener('load', focusFrame);
      panel.appendChild(frame);
    } else {
      focusFrame();
    }
    panel.style.display = 'block';
    button.innerHTML = closeIcon;
    button.setAttribute('aria-label', labels.close);
    button.setAttribute('aria-expanded', 'true');
    layout();
  }

  // Puts the cursor in the chat's message box (once the chat page is there).
  function focusFrame() {
    if (frame && frame.contentWindow && isOpen()) {
      frame.contentWindow.postMessage({ type: 'atelier-embed:focus' }, frameOrigin);
    }
  }

  function close() {
    panel.style.display = 'none';
    button.innerHTML = chatIcon;
    button.setAttribute('aria-label', labels.open);
    button.setAttribute('aria-expanded', 'false');
    layout();
    button.focus();
  }

  button.addEventListener('click', function () {
    if (isOpen()) close();
    else open();
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && isOpen()) close();
  });
  // The chat page asks to be closed (its close button, or Escape inside it).
  window.addEventListener('message', function (event) {
    if (event.origin !== frameOrigin || !frame || event.source !== frame.contentWindow) return;
    if (event.data && event.data.type === 'atelier-embed:close') close();
  });
  if (narrow.addEventListener) narrow.addEventListener('change', layout);

  function mount() {
    document.body.appendChild(panel);
    document.body.appendChild(button);
    layout();
  }
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
