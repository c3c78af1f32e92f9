import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import './table.css';

/**
 * A table that never widens the page: it scrolls inside its own box when it is wider than the screen.
 * With `stack`, it becomes a list of cards on a phone instead (give each cell its column's `label`).
 */
export const Table = ({ className, stack, ...props }: ComponentProps<'table'> & { stack?: boolean }) => (
  <div className="w-full max-w-full overflow-x-auto">
    <table
      className={cn('w-full caption-bottom text-sm', className)}
      data-stack={stack ? '' : undefined}
      {...props}
    />
  </div>
);
export const TableHeader = (props: ComponentProps<'thead'>) => (
  <thead className="[&_tr]:border-b" {...props} />
);
export const TableBody = (props: ComponentProps<'tbody'>) => (
  <tbody className="[&_tr:last-child]:border-0" {...props} />
);
export const TableRow = ({ className, ...props }: ComponentProps<'tr'>) => (
  <tr className={cn('border-b transition-colors hover:bg-muted/50', className)} {...props} />
);
export const TableHead = ({ className, ...props }: ComponentProps<'th'>) => (
  <th
    className={cn(
      'h-10 px-3 text-left align-middle text-xs font-medium uppercase tracking-wide text-muted-foreground',
      className,
    )}
    {...props}
  />
);
/** A cell; `label` names its column on a stacked table's card, `actions` puts it at the card's foot. */
export const TableCell = ({
  className,
  label,
  actions,
  ...props
}: ComponentProps<'td'> & { label?: string; actions?: boolean }) => (
  <td
    className={cn('px-3 py-2.5 align-middle', className)}
    data-label={label}
    data-actions={actions ? '' : undefined}
    {...props}
  />
);
