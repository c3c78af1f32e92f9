import type { NodeCategory } from '@atelier/schemas';
import {
  Boxes,
  BrainCircuit,
  Database,
  DownloadCloud,
  GitBranch,
  Image,
  type LucideIcon,
  LogIn,
  Scissors,
  Wrench,
} from 'lucide-react';

/** Each category's icon and accent, shared by the palette and the nodes. */
export const CATEGORY_LOOK: Record<NodeCategory, { icon: LucideIcon; accent: string }> = {
  io: { icon: LogIn, accent: 'bg-slate-500' },
  models: { icon: BrainCircuit, accent: 'bg-violet-500' },
  media: { icon: Image, accent: 'bg-pink-500' },
  knowledge: { icon: Database, accent: 'bg-emerald-500' },
  loaders: { icon: DownloadCloud, accent: 'bg-sky-500' },
  splitters: { icon: Scissors, accent: 'bg-amber-500' },
  tools: { icon: Wrench, accent: 'bg-orange-500' },
  logic: { icon: GitBranch, accent: 'bg-indigo-500' },
};

export const UNKNOWN_LOOK = { icon: Boxes, accent: 'bg-muted-foreground' };

/** The first text worth showing on a node's face: its prompt, query, url… shortened. */
export function nodeSummary(fields: unknown): string {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return '';
  const record = fields as Record<string, unknown>;
  for (const key of [
    'prompt',
    'query',
    'agentPrompt',
    'systemPrompt',
    'url',
    'input',
    'content',
    'response',
  ]) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) {
      const line = value.trim().replace(/\s+/g, ' ');
      return line.length > 70 ? `${line.slice(0, 69)}…` : line;
    }
  }
  return '';
}
