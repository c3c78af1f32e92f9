import i18n from 'i18next';
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { bundle } from './locale-bundles';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * A React root on a fresh container for each test of the file (or describe) calling it, with the app's
 * English texts: `render` an element, read `container`, `remount` to start over within a test.
 */
export function reactRoot() {
  let container: HTMLDivElement;
  let root: Root;
  beforeAll(async () => {
    // As the app: React escapes what it renders, so i18next must not too.
    await i18n.use(initReactI18next).init({
      lng: 'en',
      resources: { en: { translation: bundle('en') } },
      interpolation: { escapeValue: false },
    });
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
  return {
    get container() {
      return container;
    },
    render: (element: ReactElement) => act(() => root.render(element)),
    remount: () => {
      act(() => root.unmount());
      root = createRoot(container);
    },
  };
}
