import { flowStreamEvent, simpleStreamEvent, type AnswerSource } from '@atelier/schemas';
import { executionError, inferenceError, StreamError } from './errors';
import { completedOutput, finalOutputText } from './final-output';

/** Where the events of one answer go (the store, bound to the conversation). */
export interface StreamSink {
  /** A chatflow's or workflow's run began (Stop cancels it). */
  runStarted?(runId: string): void;
  started(messageId: string): void;
  /** A chunk to append. */
  text(text: string): void;
  /** Where the answer's context came from (a simple chatbot's collections, a flow's knowledge nodes). */
  sources?(sources: AnswerSource[]): void;
  /** The final output replaces the assistant message; null: completed without content. */
  output(text: string | null): void;
  /** The workflow step under way. */
  progress(node: string | null): void;
}

/** 'done' stops reading: the answer is complete. */
export type Step = 'continue' | 'done';

/**
 * One event of the simple chat stream: start, text (appended), heartbeat (ignored), end, and the
 * inference-error marker, which fails the answer. Unknown events are skipped.
 */
export function simpleStep(data: unknown, sink: StreamSink): Step {
  const parsed = simpleStreamEvent.safeParse(data);
  if (!parsed.success) return 'continue';
  const event = parsed.data;
  switch (event.type) {
    case 'start':
      sink.started(event.message_id);
      return 'continue';
    case 'text':
      sink.text(event.text);
      return 'continue';
    case 'sources':
      sink.sources?.(event.sources);
      return 'continue';
    case 'inference_error':
      throw new StreamError(inferenceError(event));
    default:
      // heartbeat; end is followed by [DONE], which the stream client stops at.
      return 'continue';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A node's display name from the fields engines use for it. */
export function nodeName(event: Record<string, unknown>): string {
  const sources = [event, isRecord(event.data) ? event.data : {}, isRecord(event.node) ? event.node : {}];
  for (const source of sources) {
    for (const key of ['node_title', 'node_name', 'title', 'name', 'label', 'node_id', 'id']) {
      const value = source[key];
      if (typeof value === 'string' && value.trim()) return value;
    }
  }
  return '?';
}

/**
 * One event of a chatflow or workflow stream (`flowStreamEvent` in @atelier/schemas, named by `type`;
 * `event` is read too, for engines that name it so): node_started shows progress, node_completed clears
 * it, text chunks of a model's answer are appended as they come, sources (of the knowledge retrieve
 * nodes) go under the answer, node_error is only logged,
 * execution_completed replaces the answer with the final output and ends the stream, execution_error
 * fails it; heartbeat and unknown events are ignored.
 */
export function flowStep(
  data: unknown,
  sink: StreamSink,
  log: (message: string) => void = console.warn,
): Step {
  if (!isRecord(data)) return 'continue';
  switch (typeof data.type === 'string' ? data.type : data.event) {
    case 'run_started':
      if (typeof data.run_id === 'string') sink.runStarted?.(data.run_id);
      return 'continue';
    case 'node_started':
      sink.progress(nodeName(data));
      return 'continue';
    case 'node_completed':
      sink.progress(null);
      return 'continue';
    case 'text':
      if (typeof data.text === 'string') sink.text(data.text);
      return 'continue';
    case 'sources': {
      const parsed = flowStreamEvent.safeParse(data);
      if (parsed.success && parsed.data.type === 'sources') sink.sources?.(parsed.data.sources);
      return 'continue';
    }
    case 'node_error':
      log(`Error occurred in ${nodeName(data)}`);
      return 'continue';
    case 'execution_completed':
      sink.output(finalOutputText(completedOutput(data)));
      return 'done';
    case 'execution_error':
      throw new StreamError(executionError(data));
    default:
      return 'continue';
  }
}
