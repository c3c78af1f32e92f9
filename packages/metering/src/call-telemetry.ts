import type { Consumption } from '@atelier/providers';
import { modelTypes, providerKinds } from '@atelier/schemas';
import { bounded, metrics, trace } from '@atelier/telemetry';
import type { MeterTarget } from './inference-log';

const PROVIDERS = new Set<string>(providerKinds);
const MODEL_TYPES = new Set<string>(modelTypes);

export const labelsOf = (target: MeterTarget) => ({
  provider: bounded(target.provider.kind, PROVIDERS),
  model_type: bounded(target.model.modelType, MODEL_TYPES),
});

/**
 * Records one metered call's end on the metrics (calls, time, first token, tokens, credits by provider
 * type) and on its span (the active one, see `meteredCall`). Labels and attributes are types and
 * numbers only: no model name, prompt or organization.
 */
export function recordModelCall(call: {
  target: MeterTarget;
  used: Consumption;
  credits: number;
  totalMs: number;
  firstTokenMs: number | null;
  fallback: boolean;
  failed: boolean;
}): void {
  const labels = labelsOf(call.target);
  const outcome = call.failed ? 'error' : 'ok';
  metrics.modelCalls.inc({ ...labels, outcome });
  metrics.modelCallDuration.observe({ ...labels, outcome }, call.totalMs / 1000);
  if (call.firstTokenMs !== null) metrics.modelTimeToFirstToken.observe(labels, call.firstTokenMs / 1000);
  if (call.used.inputTokens)
    metrics.modelTokens.inc({ provider: labels.provider, direction: 'input' }, call.used.inputTokens);
  if (call.used.outputTokens)
    metrics.modelTokens.inc({ provider: labels.provider, direction: 'output' }, call.used.outputTokens);
  if (call.credits > 0) metrics.modelCredits.inc({ provider: labels.provider }, call.credits);
  trace.getActiveSpan()?.setAttributes({
    'atelier.provider': labels.provider,
    'atelier.model_type': labels.model_type,
    'atelier.fallback': call.fallback,
    'atelier.input_tokens': call.used.inputTokens ?? 0,
    'atelier.output_tokens': call.used.outputTokens ?? 0,
    'atelier.credits': call.credits,
    ...(call.firstTokenMs !== null ? { 'atelier.first_token_ms': Math.round(call.firstTokenMs) } : {}),
  });
}
