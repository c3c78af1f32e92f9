import { useEffect, useRef } from 'react';
import { useEditorStore } from './editor-store';

/** Where typing belongs to a field, not to the canvas. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[role=dialog]') !== null;
}

export interface ShortcutActions {
  save(): void;
}

/**
 * The editor's keys: Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, Ctrl/Cmd+C copy, Ctrl/Cmd+V paste,
 * Ctrl/Cmd+D duplicate, Ctrl/Cmd+S save, Delete or Backspace delete the selection, Escape deselect.
 */
export function useEditorShortcuts(actions: ShortcutActions) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      // Saving works from a field too: that is where one usually is when wanting to save.
      if (mod && key === 's') {
        event.preventDefault();
        latest.current.save();
        return;
      }
      if (isTyping(event.target)) return;
      const store = useEditorStore.getState();
      const selected = () => store.nodes.filter((n) => n.selected).map((n) => n.id);
      if (mod && key === 'z' && !event.shiftKey) store.undo();
      else if (mod && ((key === 'z' && event.shiftKey) || key === 'y')) store.redo();
      else if (mod && key === 'c') {
        if (!store.copy(selected())) return;
      } else if (mod && key === 'v') store.paste();
      else if (mod && key === 'd') {
        if (store.copy(selected())) store.paste();
      } else if (!mod && (key === 'delete' || key === 'backspace')) store.deleteSelection();
      else if (key === 'escape') store.selectNode(null);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
