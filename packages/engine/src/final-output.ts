import { EMPTY_OUTPUT_TEXT, finalOutputText as outputText } from '@atelier/schemas';

export { EMPTY_OUTPUT_TEXT };

/** A run's final output text (the rule lives in @atelier/schemas, shared with the chat). */
export const finalOutputText = (outputs: unknown): string => outputText(outputs) ?? EMPTY_OUTPUT_TEXT;
