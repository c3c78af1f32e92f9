import type { CreditPlan, User, Workspace } from '@atelier/schemas';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { reconcileSelection } from './workspace-selection';

export type CreditsState =
  | { status: 'idle' | 'loading' }
  | { status: 'loaded'; data: CreditPlan }
  | { status: 'error'; error: string };

export interface AppState {
  // auth slice (persisted)
  user: User | null;
  setUser(user: User | null): void;
  // workspace slice (persisted)
  workspaces: Workspace[];
  selectedWorkspaceId: string | null;
  selectedWorkspaceRoleId: string | null;
  /** Replaces the list and applies the selection rules. */
  setWorkspaces(workspaces: Workspace[]): void;
  selectWorkspace(id: string | null): void;
  // not persisted
  credits: CreditsState;
  setCredits(credits: CreditsState): void;
  menuOpen: boolean;
  setMenuOpen(open: boolean): void;
  /** Logout: forget the user and their workspace choice. */
  reset(): void;
}

export const useAppStore = create<AppState>()(
  persist(
    (set, get) => ({
      user: null,
      setUser: (user) => set({ user }),
      workspaces: [],
      selectedWorkspaceId: null,
      selectedWorkspaceRoleId: null,
      setWorkspaces: (workspaces) => {
        const selected = reconcileSelection(workspaces, get().selectedWorkspaceId);
        set({
          workspaces,
          selectedWorkspaceId: selected?.id ?? null,
          selectedWorkspaceRoleId: selected?.workspace_role_id ?? null,
        });
      },
      selectWorkspace: (id) => {
        const selected = get().workspaces.find((w) => w.id === id) ?? null;
        set({
          selectedWorkspaceId: selected?.id ?? null,
          selectedWorkspaceRoleId: selected?.workspace_role_id ?? null,
        });
      },
      credits: { status: 'idle' },
      setCredits: (credits) => set({ credits }),
      menuOpen: false,
      setMenuOpen: (menuOpen) => set({ menuOpen }),
      reset: () =>
        set({
          user: null,
          workspaces: [],
          selectedWorkspaceId: null,
          selectedWorkspaceRoleId: null,
          credits: { status: 'idle' },
        }),
    }),
    {
      name: 'atelier-store',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({
        user: s.user,
        workspaces: s.workspaces,
        selectedWorkspaceId: s.selectedWorkspaceId,
        selectedWorkspaceRoleId: s.selectedWorkspaceRoleId,
      }),
    },
  ),
);

export const useSelectedWorkspace = () =>
  useAppStore((s) => s.workspaces.find((w) => w.id === s.selectedWorkspaceId) ?? null);
