import type { AnswerSource, InputCustomField } from '@atelier/schemas';
import type { MessageRole } from '@atelier/schemas/constants';
import { executionError } from '@/features/chat/errors';
import type { RunFailure } from './run-errors';
import type { RunSink } from './run-stream';

export interface ChatTurn {
  id: string;
  role: MessageRole;
  content: string;
  /** Assistant turns: thinking until text comes, streaming while it comes, then done or error. */
  state: 'thinking' | 'streaming' | 'done' | 'error';
  /** Completed without content (the spec's 'Response completed but no content was provided.'). */
  empty?: boolean;
  /** The error sentence, shown as 'Error: {message}'. */
  error?: string;
  /** A refusal with what to fix (422), shown under the error. */
  failure?: RunFailure;
  /** What the flow's knowledge retrieve nodes found, shown under the answer. */
  sources?: AnswerSource[];
}

/** The names a chatflow's run takes from the conversation itself, not from the inputs form. */
export const CONVERSATION_INPUTS = ['query', 'history'];

export const additionalFields = (fields: readonly InputCustomField[]) =>
  fields.filter((f) => !CONVERSATION_INPUTS.includes(f.name));

/** The conversation so far as the chatflow's `history`: answered turns only, oldest first. */
export function historyOf(turns: readonly ChatTurn[]): { role: MessageRole; content: string }[] {
  const history: { role: MessageRole; content: string }[] = [];
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    const answer = turns[i + 1];
    // A question whose answer failed is left out with it: the model never saw an exchange there.
    if (turn.role === 'user' && answer?.role === 'assistant' && answer.state === 'done') {
      history.push({ role: 'user', content: turn.content }, { role: 'assistant', content: answer.content });
    }
  }
  return history;
}

/** The inputs of one turn's test run: the message, the history, and the additional inputs. */
export const turnInputs = (
  query: string,
  turns: readonly ChatTurn[],
  additional: Record<string, unknown>,
): Record<string, unknown> => ({ query, history: historyOf(turns), ...additional });

/**
 * A run sink for one assistant turn: every event still goes to `base` (the canvas statuses), and
 * the turn follows the stream: text appended, sources kept, the final output replacing the text, an execution error
 * shown as the message's error.
 */
export function turnSink(base: RunSink, update: (patch: (turn: ChatTurn) => ChatTurn) => void): RunSink {
  return {
    load: base.load,
    event(event, id) {
      base.event(event, id);
      if (event.type === 'text') {
        update((turn) =>
          turn.state === 'done' || turn.state === 'error'
            ? turn
            : { ...turn, state: 'streaming', content: turn.content + event.text },
        );
      } else if (event.type === 'sources') {
        update((turn) => ({ ...turn, sources: event.sources }));
      } else if (event.type === 'execution_completed') {
        const content = event.final_output;
        update((turn) => ({ ...turn, state: 'done', content, empty: content.trim() === '' }));
      } else if (event.type === 'execution_error') {
        const info = executionError({ error: event.error });
        update((turn) => ({ ...turn, state: 'error', error: info.detail ?? '' }));
      }
    },
  };
}
