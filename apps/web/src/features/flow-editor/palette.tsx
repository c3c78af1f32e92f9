import { type NodeDefinition, nodesByCategory } from '@atelier/schemas';
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { CATEGORY_LOOK } from './node-look';

/** The drag payload of a palette entry. */
export const NODE_DRAG_TYPE = 'application/x-atelier-node';

const matches = (def: NodeDefinition, needle: string, t: (key: string) => string) =>
  !needle || [t(def.label), def.type, t(def.description)].some((text) => text.toLowerCase().includes(needle));

/** Node kinds by category, searchable; drag one onto the canvas, or click to add it in view. */
export function Palette({ onAdd, className }: { onAdd(type: string): void; className?: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const groups = useMemo(() => [...nodesByCategory()], []);
  const needle = search.trim().toLowerCase();
  const shown = groups
    .map(([category, defs]) => [category, defs.filter((d) => matches(d, needle, t))] as const)
    .filter(([, defs]) => defs.length > 0);

  return (
    <aside
      className={cn('flex h-full w-60 shrink-0 flex-col border-r bg-background', className)}
      data-testid="node-palette"
    >
      <div className="relative border-b p-2">
        <Search className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('flow.palette.search')}
          aria-label={t('flow.palette.search')}
          className="h-8 pl-8"
        />
      </div>
      <div className="flex-1 overflow-y-auto p-2">
        {shown.length === 0 && <p className="p-2 text-sm text-muted-foreground">{t('flow.palette.none')}</p>}
        {shown.map(([category, defs]) => {
          const { icon: Icon, accent } = CATEGORY_LOOK[category];
          return (
            <section key={category} className="mb-3">
              <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">
                {t(`flow.categories.${category}`)}
              </h3>
              <ul className="grid gap-0.5">
                {defs.map((def) => (
                  <li key={def.type}>
                    <button
                      type="button"
                      draggable
                      data-testid={`palette-${def.type}`}
                      title={t(def.description)}
                      onDragStart={(event) => {
                        event.dataTransfer.setData(NODE_DRAG_TYPE, def.type);
                        event.dataTransfer.effectAllowed = 'move';
                      }}
                      onClick={() => onAdd(def.type)}
                      className="flex w-full cursor-grab items-center gap-2 rounded-md px-1.5 py-1 text-left text-sm hover:bg-muted active:cursor-grabbing"
                    >
                      <span
                        className={cn('grid size-5 shrink-0 place-items-center rounded text-white', accent)}
                      >
                        <Icon className="size-3" />
                      </span>
                      <span className="truncate">{t(def.label)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </aside>
  );
}
