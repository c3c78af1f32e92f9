import type { models } from '@atelier/db';
import { creditsFor, type Consumption } from '@atelier/providers';
import type { ModelPricing } from '@atelier/schemas';

type ModelRow = typeof models.$inferSelect;

/** A model row's prices, as the API shows them and `creditsFor` reads them. */
export function pricingOf(row: ModelRow): ModelPricing {
  return {
    input_per_1k: row.inputPer1k,
    output_per_1k: row.outputPer1k,
    per_call: row.perCall,
    per_image: row.perImage,
    per_second: row.perSecond,
  };
}

/** The credits a call on this model costs for what it consumed. */
export const priceOf = (model: ModelRow, used: Consumption): number => creditsFor(pricingOf(model), used);

/** Speech is priced by its text, about four characters to a token (plus the model's per-call price). */
export const speechConsumption = (text: string): Consumption => ({ inputTokens: Math.ceil(text.length / 4) });
