import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** The theme's colours, so charts follow light and dark mode. */
export const COLORS = {
  primary: 'var(--primary)',
  error: 'var(--destructive)',
  success: 'var(--success)',
  warning: 'var(--warning)',
  muted: 'var(--muted-foreground)',
};

const axis = { stroke: 'var(--muted-foreground)', fontSize: 12, tickLine: false, axisLine: false } as const;
const tooltip = {
  contentStyle: {
    background: 'var(--popover)',
    color: 'var(--popover-foreground)',
    border: '1px solid var(--border)',
    borderRadius: 8,
    fontSize: 12,
  },
  labelStyle: { color: 'var(--popover-foreground)', fontWeight: 600 },
  cursor: { fill: 'var(--muted)', opacity: 0.5 },
};

/** A titled card holding one chart. */
export function ChartCard({
  title,
  description,
  children,
  className,
  testId,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <Card className={cn('grid min-w-0 gap-3 p-4', className)} data-testid={testId}>
      <div>
        <h3 className="font-semibold tracking-tight">{title}</h3>
        {description ? <p className="text-xs text-muted-foreground">{description}</p> : null}
      </div>
      <div className="h-56 min-w-0">{children}</div>
    </Card>
  );
}

export interface Series {
  dataKey: string;
  label: string;
  color: string;
}

/** Bars per category (a bucket, an hour), one bar per series, stacked when asked. */
export function Bars<T extends object>({
  data,
  x,
  series,
  stacked = false,
  horizontal = false,
  format,
}: {
  data: T[];
  x: string;
  series: Series[];
  stacked?: boolean;
  horizontal?: boolean;
  format?: (value: number) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data}
        layout={horizontal ? 'vertical' : 'horizontal'}
        margin={{ top: 8, left: 0, right: 8 }}
      >
        <CartesianGrid stroke="var(--border)" vertical={horizontal} horizontal={!horizontal} />
        {horizontal ? (
          <>
            <XAxis type="number" {...axis} allowDecimals={false} />
            <YAxis type="category" dataKey={x} {...axis} width={110} />
          </>
        ) : (
          <>
            <XAxis dataKey={x} {...axis} minTickGap={8} />
            <YAxis {...axis} width={40} allowDecimals={false} tickFormatter={format} />
          </>
        )}
        <Tooltip {...tooltip} formatter={format ? (v) => format(Number(v)) : undefined} />
        {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
        {series.map((s) => (
          <Bar
            key={s.dataKey}
            dataKey={s.dataKey}
            name={s.label}
            fill={s.color}
            radius={stacked ? 0 : 3}
            stackId={stacked ? 'stack' : undefined}
            maxBarSize={36}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Lines over the buckets; gaps where nothing was measured. */
export function Lines<T extends object>({
  data,
  x,
  series,
  format,
  integer = false,
}: {
  data: T[];
  x: string;
  series: Series[];
  format?: (value: number) => string;
  /** Counts: no fractional ticks. */
  integer?: boolean;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, left: 0, right: 8 }}>
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey={x} {...axis} minTickGap={8} />
        <YAxis {...axis} width={64} tickFormatter={format} allowDecimals={!integer} />
        <Tooltip
          {...tooltip}
          cursor={{ stroke: 'var(--border)' }}
          formatter={format ? (v) => format(Number(v)) : undefined}
        />
        {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
        {series.map((s) => (
          <Line
            key={s.dataKey}
            dataKey={s.dataKey}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={data.length < 20 ? { r: 3 } : false}
            type="monotone"
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
