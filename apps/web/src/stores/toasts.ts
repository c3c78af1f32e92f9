import { create } from 'zustand';

export const MAX_TOASTS = 5;
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';
export interface Toast {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
}

interface ToastState {
  toasts: Toast[];
  add(
    toast: Omit<Toast, 'id' | 'variant' | 'duration'> & Partial<Pick<Toast, 'variant' | 'duration'>>,
  ): string;
  remove(id: string): void;
}

let counter = 0;

/** At most five at once (the oldest gives way); each removes itself after its duration. */
export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  add: (toast) => {
    const id = `t${++counter}`;
    const full: Toast = { variant: 'default', duration: TOAST_DURATION_MS, ...toast, id };
    set({ toasts: [...get().toasts, full].slice(-MAX_TOASTS) });
    setTimeout(() => get().remove(id), full.duration);
    return id;
  },
  remove: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));

/** Success shows as a default toast, error as a destructive one (spec section 4). */
export const toast = {
  success: (title: string, description?: string) =>
    useToasts.getState().add({ title, ...(description ? { description } : {}), variant: 'default' }),
  error: (title: string, description?: string) =>
    useToasts.getState().add({ title, ...(description ? { description } : {}), variant: 'destructive' }),
};
