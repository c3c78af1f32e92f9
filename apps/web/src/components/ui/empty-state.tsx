import { cva, type VariantProps } from 'class-variance-authority';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

const frame = cva('flex flex-col items-center gap-3 text-center', {
  variants: {
    variant: {
      /** A dashed card in a list or a page section. */
      card: 'rounded-xl border border-dashed bg-card/50 px-6 py-10',
      /** Centred in the free space of a full-height page (the chat). */
      page: 'flex-1 justify-center p-6',
    },
  },
  defaultVariants: { variant: 'card' },
});

const sizes = {
  card: { circle: 'size-10', icon: 'size-5', title: 'font-medium' },
  page: { circle: 'size-12', icon: 'size-6', title: 'text-lg font-semibold' },
} as const;

/** Nothing here yet: what the place is for, and the action that fills it. */
export function EmptyState({
  icon: Icon,
  title,
  text,
  action,
  variant,
}: VariantProps<typeof frame> & {
  icon: LucideIcon;
  title: string;
  text: string;
  action?: ReactNode;
}) {
  const size = sizes[variant ?? 'card'];
  return (
    <div className={frame({ variant })}>
      <div
        className={`flex ${size.circle} items-center justify-center rounded-full bg-primary/10 text-primary`}
      >
        <Icon className={size.icon} />
      </div>
      <div className="grid gap-1">
        <p className={size.title}>{title}</p>
        <p className="max-w-md text-sm text-muted-foreground">{text}</p>
      </div>
      {action}
    </div>
  );
}
