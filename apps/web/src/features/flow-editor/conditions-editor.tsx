import {
  type Condition,
  type ConditionBranch,
  conditionBranch,
  conditionOperators,
  ELSE_HANDLE,
  UNARY_OPERATORS,
} from '@atelier/schemas';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { VariableMenu } from './reference-input';
import type { ReferenceSource } from './references';

const text = (v: unknown) =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

const freshId = (branches: readonly ConditionBranch[]) => {
  const ids = new Set(branches.map((b) => b.id));
  let i = branches.length;
  while (ids.has(`elif_${i}`)) i++;
  return `elif_${i}`;
};

function ConditionRow({
  condition,
  sources,
  onChange,
  onRemove,
}: {
  condition: Condition;
  sources: ReferenceSource[];
  onChange(c: Condition): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const unary = UNARY_OPERATORS.has(condition.operator);
  return (
    <div className="grid gap-1 rounded border bg-muted/30 p-1.5">
      <div className="flex items-center gap-1">
        <Input
          aria-label={t('flow.conditions.left')}
          placeholder={t('flow.conditions.left')}
          value={text(condition.left)}
          onChange={(e) => onChange({ ...condition, left: e.target.value })}
          className="h-7 flex-1 font-mono text-xs"
        />
        <VariableMenu sources={sources} onPick={(ref) => onChange({ ...condition, left: ref })} />
      </div>
      <div className="flex items-center gap-1">
        <Select
          value={condition.operator}
          onValueChange={(operator) =>
            onChange({ ...condition, operator: operator as Condition['operator'] })
          }
        >
          <SelectTrigger className="h-7 w-32 text-xs" aria-label={t('flow.conditions.operator')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {conditionOperators.map((op) => (
              <SelectItem key={op} value={op}>
                {t(`flow.operators.${op}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {!unary && (
          <Input
            aria-label={t('flow.conditions.right')}
            placeholder={t('flow.conditions.right')}
            value={text(condition.right)}
            onChange={(e) => onChange({ ...condition, right: e.target.value })}
            className="h-7 min-w-0 flex-1 text-xs"
          />
        )}
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={t('flow.conditions.removeCondition')}
          onClick={onRemove}
        >
          <Trash2 />
        </Button>
      </div>
    </div>
  );
}

/** A conditional's branches: if, elif… each with its conditions; else is implicit and last. */
export function ConditionsEditor({
  value,
  sources,
  onChange,
}: {
  value: unknown;
  sources: ReferenceSource[];
  onChange(branches: ConditionBranch[]): void;
}) {
  const { t } = useTranslation();
  const branches = (Array.isArray(value) ? value : []) as ConditionBranch[];
  const update = (i: number, branch: ConditionBranch) =>
    onChange(branches.map((b, j) => (j === i ? branch : b)));
  const emptyCondition: Condition = { left: '', operator: 'equals', right: '' };

  return (
    <div className="grid gap-2" data-testid="conditions-editor">
      <span className="text-xs font-medium">{t('flow.conditions.title')}</span>
      {branches.map((branch, i) => {
        const parsed = conditionBranch.safeParse(branch);
        return (
          <div key={i} className="grid gap-1.5 rounded-md border p-2" data-testid={`branch-${branch.id}`}>
            <div className="flex items-center gap-1.5">
              <span className="w-8 text-xs font-semibold text-muted-foreground">
                {i === 0 ? 'if' : 'elif'}
              </span>
              <Input
                aria-label={t('flow.conditions.label')}
                placeholder={branch.id}
                value={branch.label ?? ''}
                onChange={(e) => update(i, { ...branch, label: e.target.value })}
                className="h-7 flex-1 text-xs"
              />
              <Select
                value={branch.logic ?? 'and'}
                onValueChange={(logic) => update(i, { ...branch, logic: logic as 'and' | 'or' })}
              >
                <SelectTrigger className="h-7 w-20 text-xs" aria-label={t('flow.conditions.logic')}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="and">{t('flow.conditions.and')}</SelectItem>
                  <SelectItem value="or">{t('flow.conditions.or')}</SelectItem>
                </SelectContent>
              </Select>
              {branches.length > 1 && (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={t('flow.conditions.removeBranch')}
                  onClick={() => onChange(branches.filter((_, j) => j !== i))}
                >
                  <Trash2 />
                </Button>
              )}
            </div>
            {(branch.conditions ?? []).map((condition, c) => (
              <ConditionRow
                key={c}
                condition={condition}
                sources={sources}
                onChange={(next) =>
                  update(i, { ...branch, conditions: branch.conditions.map((x, k) => (k === c ? next : x)) })
                }
                onRemove={() =>
                  update(i, { ...branch, conditions: branch.conditions.filter((_, k) => k !== c) })
                }
              />
            ))}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="h-7 justify-start"
              onClick={() =>
                update(i, { ...branch, conditions: [...(branch.conditions ?? []), emptyCondition] })
              }
            >
              <Plus /> {t('flow.conditions.addCondition')}
            </Button>
            {(branch.conditions ?? []).length === 0 && (
              <p className="text-xs text-muted-foreground">{t('flow.conditions.neverMatches')}</p>
            )}
            {!parsed.success && (
              <p role="alert" className="text-xs text-destructive">
                {parsed.error.issues[0]?.message}
              </p>
            )}
          </div>
        );
      })}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="h-7"
        onClick={() => onChange([...branches, { id: freshId(branches), logic: 'and', conditions: [] }])}
      >
        <Plus /> {t('flow.conditions.addBranch')}
      </Button>
      <p className="text-xs text-muted-foreground">
        {t('flow.conditions.elseHelp', { handle: ELSE_HANDLE })}
      </p>
    </div>
  );
}
