// What every package records with: the metrics registry and its metrics, the tracer, and the log and
// job context (request id, run id, trace context). Starting exporters is `@atelier/telemetry/start`.
export * from './context';
export * as metrics from './metrics';
export {
  bounded,
  canReadMetrics,
  enableProcessMetrics,
  metricsText,
  registry,
  watchQueueDepth,
} from './metrics';
export * from './tracing';
export { scrubEvent, scrubSpan, scrubText } from './scrub';
