import { AlertDialog as A } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { buttonVariants } from './button';

export const AlertDialog = A.Root;

export function AlertDialogContent({ className, ...props }: ComponentProps<typeof A.Content>) {
  return (
    <A.Portal>
      <A.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <A.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-xl',
          className,
        )}
        {...props}
      />
    </A.Portal>
  );
}

export const AlertDialogTitle = ({ className, ...props }: ComponentProps<typeof A.Title>) => (
  <A.Title className={cn('text-lg font-semibold', className)} {...props} />
);
export const AlertDialogDescription = ({ className, ...props }: ComponentProps<typeof A.Description>) => (
  <A.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
);
export const AlertDialogCancel = ({ className, ...props }: ComponentProps<typeof A.Cancel>) => (
  <A.Cancel className={cn(buttonVariants({ variant: 'outline' }), className)} {...props} />
);
export const AlertDialogAction = ({ className, ...props }: ComponentProps<typeof A.Action>) => (
  <A.Action className={cn(buttonVariants({ variant: 'destructive' }), className)} {...props} />
);
