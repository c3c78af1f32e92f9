import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** The previous and next buttons of a paged list (a connector collection's preview, a document's chunks). */
export function Pager({
  previous,
  next,
}: {
  previous: { label: string; disabled: boolean; onClick(): void };
  next: { label: string; disabled: boolean; onClick(): void };
}) {
  return (
    <div className="flex gap-1">
      {[
        { ...previous, icon: <ChevronLeft /> },
        { ...next, icon: <ChevronRight /> },
      ].map((b) => (
        <Button
          key={b.label}
          size="sm"
          variant="outline"
          disabled={b.disabled}
          onClick={b.onClick}
          aria-label={b.label}
        >
          {b.icon}
        </Button>
      ))}
    </div>
  );
}
