/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4), for tests: it throws on any line
 * Prometheus would refuse. The npm parsers tried either refuse valid values (prom2javascript: `NaN`, which
 * prom-client writes for the event loop lag before its first sample) or lose a labelled histogram's
 * series (parse-prometheus-text-format), so the grammar is read here.
 */
export type Labels = Record<string, string>;
/** One series: a counter's or gauge's value, or a histogram's count, sum and buckets (`le` → count). */
export type Series = {
  labels: Labels;
  value?: number;
  count?: number;
  sum?: number;
  buckets?: Record<string, number>;
};
export type Family = { type: string; help?: string; series: Series[] };
export type Metrics = Record<string, Family>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/;
const LABEL = /^[ \t]*([a-zA-Z_][a-zA-Z0-9_]*)[ \t]*=[ \t]*"((?:[^"\\\n]|\\[\\"n])*)"[ \t]*(?:,|$)/;
/** Go's ParseFloat, as Prometheus reads a value: a decimal number, ±Inf or NaN (any case). */
const VALUE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf(?:inity)?|nan)$/i;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function value(text: string, line: string): number {
  if (!VALUE.test(text)) throw new Error(`not a sample value in [${line}]`);
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/inf/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

function labelsOf(text: string | undefined, line: string): Labels {
  const labels: Labels = {};
  let rest = text ?? '';
  while (rest.trim() !== '') {
    const m = LABEL.exec(rest);
    if (!m) throw new Error(`malformed labels in [${line}]`);
    if (m[1]! in labels) throw new Error(`label ${m[1]} twice in [${line}]`);
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

export function parsePrometheusText(text: string): Metrics {
  const metrics: Metrics = {};
  const index = new Map<string, Series>();
  const familyOf = (name: string): [string, string] => {
    for (const suffix of ['_bucket', '_sum', '_count']) {
      const base = name.slice(0, -suffix.length);
      if (name.endsWith(suffix) && ['histogram', 'summary'].includes(metrics[base]?.type ?? ''))
        return [base, suffix];
    }
    return [name, ''];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) continue; // any other comment
      if (!NAME.test(m[2]!)) throw new Error(`bad metric name in [${line}]`);
      const family = (metrics[m[2]!] ??= { type: 'untyped', series: [] });
      if (m[1] === 'HELP') family.help = m[3] ?? '';
      else if (TYPES.has(m[3] ?? '')) family.type = m[3]!;
      else throw new Error(`bad type in [${line}]`);
      continue;
    }
    const m = LINE.exec(line);
    if (!m) throw new Error(`Unable to parse metric [${line}]`);
    const [name, suffix] = familyOf(m[1]!);
    const family = (metrics[name] ??= { type: 'untyped', series: [] });
    const labels = labelsOf(m[2], line);
    const le = suffix === '_bucket' ? labels.le : undefined;
    if (suffix === '_bucket') {
      if (le === undefined) throw new Error(`bucket without le in [${line}]`);
      delete labels.le;
    }
    const id = `${name}${key(labels)}`;
    let series = index.get(id);
    if (!series) {
      series = { labels };
      family.series.push(series);
      index.set(id, series);
    }
    const v = value(m[3]!, line);
    if (suffix === '_bucket') (series.buckets ??= {})[le!] = v;
    else if (suffix === '_sum') series.sum = v;
    else if (suffix === '_count') series.count = v;
    else series.value = v;
  }
  return metrics;
}
