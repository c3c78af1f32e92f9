export { runFlow, type RunOptions, type RunResult } from './executor';
export {
  validateFlow,
  patternProblems,
  problemCodes,
  type FlowProblem,
  type ProblemCode,
  type ValidateOptions,
} from './validate';
export { finalOutputText, EMPTY_OUTPUT_TEXT } from './final-output';
export {
  parseReferences,
  wholeReference,
  resolveText,
  resolveValue,
  resolvePath,
  lookupReference,
  walkPath,
  stringifyValue,
  forEachReference,
  hasReferences,
  referencedNodeIds,
  type Reference,
  type OutputLookup,
} from './references';
export { NODE_REGISTRY } from './nodes';
export type * from './services';
export {
  DEFAULT_LIMITS,
  type AgentTool,
  type ChildRunResult,
  type NodeContext,
  type NodeImplementation,
  type NodeOutputs,
  type NodeRegistry,
  type RunLimits,
  type ToolContext,
} from './types';
export {
  CapabilityError,
  NodeInputError,
  NodeTimeoutError,
  PermanentError,
  RunError,
  type RunErrorCode,
} from './errors';
export { evaluateExpression } from './calculator';
export { evaluateCondition, chooseBranch } from './conditions';
export { coerceInput, readInputs } from './values/input-coercion';
export { recursiveSplit, type RecursiveSplitOptions } from './splitters/recursive';
export { compileUserRegex, userRegexProblem, UnsupportedPatternError } from './user-regex';
export { markdownSplit, type MarkdownSplitOptions, type HeaderChunk } from './splitters/markdown';
export { htmlSplit, type HtmlSplitOptions } from './splitters/html';
export type { Sleep } from './run-state';
