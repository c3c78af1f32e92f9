import type { Workspace } from '@atelier/schemas';

/**
 * The spec's selection rules, pure: keep the selection when it still exists; with none selected
 * take the first; when the selected one is gone or the list is empty, clear it.
 */
export function reconcileSelection(workspaces: Workspace[], selectedId: string | null): Workspace | null {
  if (workspaces.length === 0) return null;
  if (selectedId === null) return workspaces[0] ?? null;
  return workspaces.find((w) => w.id === selectedId) ?? null;
}
