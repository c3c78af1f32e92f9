import { create } from 'zustand';

export type Theme = 'light' | 'dark' | 'system';
export const THEME_STORAGE_KEY = 'atelier-theme';

function stored(): Theme {
  const value = localStorage.getItem(THEME_STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

const media = () => window.matchMedia('(prefers-color-scheme: dark)');

function apply(theme: Theme) {
  const dark = theme === 'dark' || (theme === 'system' && media().matches);
  document.documentElement.classList.toggle('dark', dark);
}

/** Light, dark or system (the default), kept in local storage and applied to <html>. */
export const useTheme = create<{ theme: Theme; setTheme(theme: Theme): void }>()((set) => ({
  theme: stored(),
  setTheme: (theme) => {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
    apply(theme);
    set({ theme });
  },
}));

export function initTheme() {
  apply(stored());
  media().addEventListener('change', () => apply(useTheme.getState().theme));
}
