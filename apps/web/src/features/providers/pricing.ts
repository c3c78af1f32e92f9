import type { ModelPricing } from '@atelier/schemas';

export const PRICE_FIELDS = ['input_per_1k', 'output_per_1k', 'per_call', 'per_image', 'per_second'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];
export type PriceForm = Record<PriceField, string>;
export const MAX_PRICE = 1_000_000;

const build = <T>(value: (field: PriceField) => T) =>
  Object.fromEntries(PRICE_FIELDS.map((f) => [f, value(f)])) as Record<PriceField, T>;

/** The form's text for each price: empty for a new model, the stored numbers when editing. */
export const priceFormOf = (pricing?: Partial<ModelPricing> | null): PriceForm =>
  build((f) => (pricing ? String(pricing[f] ?? 0) : ''));

/** A price as typed: empty means 0; anything else must be a number from 0 to MAX_PRICE. */
export function parsePrice(raw: string): number | null {
  const text = raw.trim().replace(',', '.');
  if (!text) return 0;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= MAX_PRICE ? value : null;
}

/** The pricing to send, or the fields that are not valid prices. */
export function parsePriceForm(form: PriceForm): { pricing: ModelPricing; invalid: PriceField[] } {
  const pricing = build((f) => parsePrice(form[f]));
  const invalid = PRICE_FIELDS.filter((f) => pricing[f] === null);
  return { pricing: build((f) => pricing[f] ?? 0), invalid };
}

/** The prices that are charged (non-zero), in the order of PRICE_FIELDS. */
export const priceParts = (pricing: Partial<ModelPricing> | null | undefined) =>
  PRICE_FIELDS.flatMap((field) => {
    const value = pricing?.[field] ?? 0;
    return value > 0 ? [{ field, value }] : [];
  });

/** Credits with up to six decimals, in the reader's language ("0.15", "0,15"). */
export const formatCredits = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 6 }).format(value);

/** "In 0.15/1k · Out 0.6/1k", or the free label when nothing is charged. */
export function priceSummary(
  pricing: Partial<ModelPricing> | null | undefined,
  language: string,
  label: (field: PriceField, value: string) => string,
  free: string,
): string {
  const parts = priceParts(pricing);
  if (parts.length === 0) return free;
  return parts.map((p) => label(p.field, formatCredits(p.value, language))).join(' · ');
}
