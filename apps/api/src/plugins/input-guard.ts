import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../services/errors';

/** Deeper than any body the API takes (a flow configuration is about 10 levels deep). */
export const MAX_JSON_DEPTH = 64;

type Problem = { kind: 'nul' | 'nul_key'; path: string } | { kind: 'depth'; path: string };

interface Frame {
  value: object;
  depth: number;
  /** The container's own path, built only when a problem is reported. */
  parent: Frame | null;
  key: string | number;
}

const pathOf = (frame: Frame | null, leaf?: string | number): string => {
  const parts: (string | number)[] = leaf === undefined ? [] : [leaf];
  for (let f = frame; f; f = f.parent) parts.push(f.key);
  return parts
    .reverse()
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p.replace(/\0/g, '\\0')}`))
    .join('');
};

/**
 * Walks a parsed JSON value once, without recursion: the first string (value or key) holding NUL, or
 * the first container deeper than `maxDepth`. Containers beyond the limit are never entered.
 */
export function findBadInput(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): Problem | null {
  if (typeof value === 'string') return value.includes('\0') ? { kind: 'nul', path: root } : null;
  if (value === null || typeof value !== 'object') return null;
  const stack: Frame[] = [{ value, depth: 1, parent: null, key: root }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return { kind: 'depth', path: pathOf(frame) };
    const visit = (child: unknown, key: string | number): Problem | null => {
      if (typeof child === 'string') {
        return child.includes('\0') ? { kind: 'nul', path: pathOf(frame, key) } : null;
      }
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
      return null;
    };
    if (Array.isArray(frame.value)) {
      const list = frame.value as unknown[];
      for (let i = 0; i < list.length; i++) {
        const problem = visit(list[i], i);
        if (problem) return problem;
      }
    } else {
      for (const key of Object.keys(frame.value)) {
        if (key.includes('\0')) return { kind: 'nul_key', path: pathOf(frame, key) };
        const problem = visit((frame.value as Record<string, unknown>)[key], key);
        if (problem) return problem;
      }
    }
  }
  return null;
}

function refusal(problem: Problem): AppError {
  switch (problem.kind) {
    case 'nul':
      return new AppError(
        422,
        'invalid_text',
        `${problem.path} contains a NUL character, which is not allowed.`,
      );
    case 'nul_key':
      return new AppError(
        422,
        'invalid_text',
        `${problem.path} is a key with a NUL character, which is not allowed.`,
      );
    case 'depth':
      return new AppError(
        422,
        'too_deep',
        `${problem.path} is nested more than ${MAX_JSON_DEPTH} levels deep, which is not allowed.`,
      );
  }
}

/**
 * Text is checked at the edge, for every route, before any handler or schema sees it: no NUL
 * character (Postgres text and jsonb cannot hold one) in the JSON body (keys and values, at any depth),
 * the query string or the path parameters, and no JSON nested deeper than MAX_JSON_DEPTH. Answers 422
 * `{detail, code: 'invalid_text' | 'too_deep'}` naming the field.
 *
 * The body is checked in the JSON content-type parser rather than in a hook: it runs exactly once per
 * body, right after Fastify's own parser (which keeps its prototype-poisoning protection, its 400 for
 * malformed JSON and the route's body limit, enforced while the body streams in), and nothing later
 * can see an unchecked body. JSON.parse is itself iterative in V8 (a million nested arrays parse), so
 * the depth is enforced by the walk; anything JSON.parse throws is answered 400 by Fastify's parser.
 * The query string and path parameters are only known after routing: a preValidation hook checks them.
 */
export default fp(
  async function inputGuard(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      parseJson(request, body as string, (error: Error | null, value?: unknown) => {
        if (error) return done(error, undefined);
        const problem = findBadInput(value, 'body');
        if (problem) return done(refusal(problem), undefined);
        done(null, value);
      });
    });

    app.addHook('preValidation', async (request: FastifyRequest) => {
      const problem = findBadInput(request.query, 'query', 3) ?? findBadInput(request.params, 'params', 2);
      if (problem) throw refusal(problem);
    });
  },
  { name: 'input-guard' },
);
