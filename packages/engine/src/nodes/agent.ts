import type { ChatMessage, ToolDefinition } from '@atelier/providers';
import { errorMessage, PermanentError } from '../errors';
import type { AgentTool } from '../types';
import { toChatMessages } from '../values/messages';
import type { Impl } from './shared';

export interface AgentStep {
  tool: string;
  arguments: Record<string, unknown>;
  result?: string;
  error?: string;
}

/** Tool names must be unique for the model: a second "calculator" becomes "calculator_2". */
function uniqueTools(tools: readonly AgentTool[]): Map<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    let name = tool.definition.name;
    for (let n = 2; byName.has(name); n++) name = `${tool.definition.name}_${n}`;
    byName.set(name, { ...tool, definition: { ...tool.definition, name } });
  }
  return byName;
}

/**
 * A tool-calling loop: the model answers or asks for tools; each call's result (or error) goes back to
 * it, until it answers without calling a tool or max_iterations model calls have been made.
 */
export const agent: Impl<'agent'> = {
  async run(ctx) {
    const { fields } = ctx;
    const tools = uniqueTools(ctx.tools());
    const definitions: ToolDefinition[] = [...tools.values()].map((t) => t.definition);
    const messages: ChatMessage[] = [
      ...toChatMessages(fields.pastMessageHistory),
      { role: 'user', content: fields.agentPrompt },
    ];
    const steps: AgentStep[] = [];
    for (let call = 1; call <= fields.max_iterations; call++) {
      const result = await ctx.services.chat({
        modelId: fields.modelId,
        system: fields.systemPrompt || undefined,
        messages: [...messages],
        temperature: fields.temperature,
        tools: definitions.length > 0 ? definitions : undefined,
        signal: ctx.signal,
        onToken: (text) => ctx.emitText(text),
      });
      if (result.toolCalls.length === 0) return { response: result.text, steps };
      messages.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
      for (const toolCall of result.toolCalls) {
        const step: AgentStep = { tool: toolCall.name, arguments: toolCall.arguments };
        const tool = tools.get(toolCall.name);
        try {
          if (!tool) throw new Error(`There is no tool named "${toolCall.name}".`);
          step.result = await tool.invoke(toolCall.arguments, ctx.signal);
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          step.error = errorMessage(error);
        }
        steps.push(step);
        messages.push({
          role: 'tool',
          toolCallId: toolCall.id,
          content: step.error === undefined ? (step.result ?? '') : `Error: ${step.error}`,
        });
      }
    }
    throw new PermanentError(
      `The agent made ${fields.max_iterations} model calls without reaching a final answer (its step limit).`,
    );
  },
};
