/**
 * Where retrieved knowledge enters a simple chatbot's prompt. The knowledge capability (collections,
 * vector stores) provides a real retriever; until then a chatbot's collections yield nothing and the
 * prompt is the instruction and the conversation alone.
 */
export interface KnowledgeRetriever {
  retrieve(input: {
    organizationId: string;
    collectionIds: string[];
    query: string;
    signal: AbortSignal;
  }): Promise<string[]>;
}

export const noKnowledge: KnowledgeRetriever = {
  retrieve: async () => [],
};

/** The system prompt: the instruction, then the passages found, clearly delimited. */
export function systemPrompt(instruction: string, passages: string[]): string {
  if (passages.length === 0) return instruction;
  const context = passages.map((p, i) => `[${i + 1}] ${p}`).join('\n\n');
  return `${instruction}\n\nUse the following context when it helps answer. Say so when it does not contain the answer.\n<context>\n${context}\n</context>`;
}
