import { z } from 'zod';

const check = z.object({ status: z.enum(['ok', 'error']), kind: z.string(), detail: z.string().optional() });
export const healthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  db: check,
  queue: check,
  version: z.string(),
});
