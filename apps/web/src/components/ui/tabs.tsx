import { Tabs } from 'radix-ui';

export const TabsRoot = Tabs.Root;
export const TabsContent = Tabs.Content;

/** A row of tabs, scrolled sideways on narrow screens. */
export function TabsBar({ label, tabs }: { label: string; tabs: { value: string; label: string }[] }) {
  return (
    <Tabs.List
      aria-label={label}
      className="inline-flex w-fit max-w-full gap-1 overflow-x-auto rounded-lg bg-muted p-1"
    >
      {tabs.map((tab) => (
        <Tabs.Trigger
          key={tab.value}
          value={tab.value}
          className="cursor-pointer whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm"
        >
          {tab.label}
        </Tabs.Trigger>
      ))}
    </Tabs.List>
  );
}
