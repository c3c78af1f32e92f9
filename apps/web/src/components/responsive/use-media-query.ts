import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's `md` breakpoint: below it a screen is narrow (a phone), and panels become sheets. */
export const WIDE_QUERY = '(min-width: 768px)';

/** Whether a CSS media query matches, kept current as the window changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  );
}

/** A screen as wide as a tablet or more. */
export const useWideScreen = () => useMediaQuery(WIDE_QUERY);
