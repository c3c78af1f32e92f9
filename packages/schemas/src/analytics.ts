import { z } from 'zod';

export const pageViewBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    path: z.string().max(500).default('/'),
  })
  .strict();
export type PageViewBody = z.infer<typeof pageViewBody>;
