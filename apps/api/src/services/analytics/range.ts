import type { OverviewAnswer } from '@atelier/schemas';
import type { Scope } from './scope';

/** The range an answer covers, as the server understood it. */
export const rangeOf = (scope: Scope): OverviewAnswer['range'] => ({
  from: scope.from.toISOString(),
  to: scope.to.toISOString(),
  period: scope.period,
  tz: scope.tz,
});
