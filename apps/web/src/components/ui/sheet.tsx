import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import { Dialog as D } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const Sheet = D.Root;
export const SheetTrigger = D.Trigger;
export const SheetClose = D.Close;

const sheetVariants = cva('fixed z-50 flex flex-col bg-background text-foreground shadow-xl outline-none', {
  variants: {
    side: {
      bottom: 'inset-x-0 bottom-0 max-h-[85dvh] rounded-t-2xl border-t',
      left: 'inset-y-0 left-0 h-full w-[85vw] max-w-sm border-r',
      right: 'inset-y-0 right-0 h-full w-[85vw] max-w-sm border-l',
    },
  },
  defaultVariants: { side: 'bottom' },
});

/**
 * A panel that slides in from an edge of the screen (shadcn's Sheet on Radix Dialog): the flow editor's
 * inspector and palette on a phone. Its body scrolls; the close button stays in its corner.
 */
export function SheetContent({
  className,
  children,
  side,
  closeLabel,
  overlay = true,
  closeButton = true,
  ...props
}: ComponentProps<typeof D.Content> &
  VariantProps<typeof sheetVariants> & {
    closeLabel: string;
    overlay?: boolean;
    /** Off when the content has its own close button (Escape and the overlay still close it). */
    closeButton?: boolean;
  }) {
  return (
    <D.Portal>
      {overlay && <D.Overlay className="fixed inset-0 z-50 bg-black/40" />}
      <D.Content className={cn(sheetVariants({ side }), className)} {...props}>
        {side === 'bottom' || side === undefined || side === null ? (
          <div aria-hidden className="mx-auto mt-2 h-1.5 w-10 shrink-0 rounded-full bg-muted" />
        ) : null}
        {children}
        {closeButton && (
          <D.Close
            className="absolute right-3 top-3 grid size-8 place-items-center rounded-md opacity-70 transition-opacity hover:bg-muted hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={closeLabel}
          >
            <X className="size-4" />
          </D.Close>
        )}
      </D.Content>
    </D.Portal>
  );
}

export function SheetTitle({ className, ...props }: ComponentProps<typeof D.Title>) {
  return <D.Title className={cn('text-base font-semibold', className)} {...props} />;
}

export function SheetDescription({ className, ...props }: ComponentProps<typeof D.Description>) {
  return <D.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
