import type { ModelPricing } from '@atelier/schemas';

/** What a call consumed, in the units its model type is priced in. */
export interface Consumption {
  inputTokens?: number;
  outputTokens?: number;
  images?: number;
  seconds?: number;
  calls?: number;
}

/** Credits owed for a call: tokens per 1k, plus per call, per image and per second. */
export function creditsFor(pricing: ModelPricing, used: Consumption): number {
  const cost =
    ((used.inputTokens ?? 0) / 1000) * pricing.input_per_1k +
    ((used.outputTokens ?? 0) / 1000) * pricing.output_per_1k +
    (used.calls ?? 1) * pricing.per_call +
    (used.images ?? 0) * pricing.per_image +
    (used.seconds ?? 0) * pricing.per_second;
  return Math.round(cost * 10_000) / 10_000;
}
