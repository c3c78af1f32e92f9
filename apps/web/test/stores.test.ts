import type { Workspace } from '@atelier/schemas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { creditLevel } from '../src/features/credits/credit-level';
import { useAppStore } from '../src/stores/app-store';
import { MAX_TOASTS, toast, TOAST_DURATION_MS, useToasts } from '../src/stores/toasts';
import { reconcileSelection } from '../src/stores/workspace-selection';

const ws = (id: string, role: Workspace['workspace_role_id'] = 'admin'): Workspace => ({
  id,
  name: `Workspace ${id}`,
  workspace_role_id: role,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('workspace selection rules', () => {
  it('selects the first when none is selected', () => {
    expect(reconcileSelection([ws('a'), ws('b')], null)?.id).toBe('a');
  });
  it('keeps a selection that still exists', () => {
    expect(reconcileSelection([ws('a'), ws('b')], 'b')?.id).toBe('b');
  });
  it('clears a selection that no longer exists, and on an empty list', () => {
    expect(reconcileSelection([ws('a')], 'gone')).toBeNull();
    expect(reconcileSelection([], 'a')).toBeNull();
    expect(reconcileSelection([], null)).toBeNull();
  });

  it('the store applies the rules and tracks the selected role', () => {
    const store = useAppStore.getState();
    store.reset();
    store.setWorkspaces([ws('a', 'viewer'), ws('b', 'admin')]);
    expect(useAppStore.getState()).toMatchObject({
      selectedWorkspaceId: 'a',
      selectedWorkspaceRoleId: 'viewer',
    });
    useAppStore.getState().selectWorkspace('b');
    expect(useAppStore.getState()).toMatchObject({
      selectedWorkspaceId: 'b',
      selectedWorkspaceRoleId: 'admin',
    });
    useAppStore.getState().setWorkspaces([ws('a', 'viewer')]);
    expect(useAppStore.getState().selectedWorkspaceId).toBeNull();
    // After a delete the selection is cleared first, so the first remaining one is chosen.
    useAppStore.getState().selectWorkspace(null);
    useAppStore.getState().setWorkspaces([ws('a', 'viewer')]);
    expect(useAppStore.getState().selectedWorkspaceId).toBe('a');
  });

  it('persists only the auth and workspace slices, as version 1', () => {
    useAppStore.getState().setCredits({ status: 'loading' });
    useAppStore.getState().setMenuOpen(true);
    const saved = JSON.parse(localStorage.getItem('atelier-store') ?? '{}');
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.state).sort()).toEqual([
      'selectedWorkspaceId',
      'selectedWorkspaceRoleId',
      'user',
      'workspaces',
    ]);
  });
});

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useToasts.setState({ toasts: [] });
  });
  afterEach(() => vi.useRealTimers());

  it('success is a default toast and error a destructive one', () => {
    toast.success('Saved');
    toast.error('Failed', 'why');
    expect(useToasts.getState().toasts.map((t) => [t.title, t.variant, t.description])).toEqual([
      ['Saved', 'default', undefined],
      ['Failed', 'destructive', 'why'],
    ]);
  });

  it('keeps at most five, dropping the oldest', () => {
    for (let i = 1; i <= 7; i++) toast.success(`n${i}`);
    expect(MAX_TOASTS).toBe(5);
    expect(useToasts.getState().toasts.map((t) => t.title)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
  });

  it('removes each toast after five seconds', () => {
    toast.success('a');
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(useToasts.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useToasts.getState().toasts).toHaveLength(0);
    expect(TOAST_DURATION_MS).toBe(5000);
  });
});

describe('credits indicator', () => {
  const plan = (remaining: number, extra = 0, monthly = 10_000) => ({
    plan_type: 'x',
    monthly_credits: monthly,
    remaining_monthly_credits: remaining,
    extra_credits: extra,
  });

  it('green above 40 %, amber above 10 %, red otherwise', () => {
    expect(creditLevel(plan(4001)).colour).toBe('green');
    expect(creditLevel(plan(4000)).colour).toBe('amber');
    expect(creditLevel(plan(1001)).colour).toBe('amber');
    expect(creditLevel(plan(1000)).colour).toBe('red');
    expect(creditLevel(plan(0)).colour).toBe('red');
  });

  it('total is remaining monthly plus extra; low under 1000; asterisk when extra > 0', () => {
    expect(creditLevel(plan(500, 400))).toMatchObject({ total: 900, low: true, asterisk: true });
    expect(creditLevel(plan(1000, 0))).toMatchObject({ total: 1000, low: false, asterisk: false });
  });

  it('an empty plan reads as red, not as an error', () => {
    expect(creditLevel(plan(0, 0, 0))).toMatchObject({ colour: 'red', total: 0 });
  });
});
