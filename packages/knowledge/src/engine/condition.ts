import { KnowledgeError, type JsonValue, type MetadataFilter } from '../stores/vector-store';

/**
 * The small condition language of the knowledge nodes (the record-delete node's "Delete records where",
 * the retrieve node's metadata filter), parsed into the store filter language — never evaluated:
 *
 *   source == "https://example.com/page"
 *   category: finance, year >= 2023
 *   (lang = "fr" or lang = "de") and tags contains "policy"
 *   status in ["draft", "old"]
 *
 * Comparisons `==` `=` `:` (equal), `!=`, `>`, `>=`, `<`, `<=`, `in [..]`, `contains`; combined with
 * `and` / `&&` / `,` and `or` / `||`, grouped with parentheses. Fields are metadata keys or dotted paths
 * (a leading `metadata.` is dropped). Values are quoted strings (backslash escapes), numbers, true,
 * false, null, or a bare word. Anything else is refused with 422 `invalid_condition`.
 */
export function parseCondition(text: string): MetadataFilter {
  if (text.length > MAX_LENGTH) fail(`A condition has at most ${MAX_LENGTH} characters.`);
  const tokens = tokenize(text);
  if (tokens.length === 0) fail('The condition is empty.');
  const parser = new Parser(tokens);
  const filter = parser.or(0);
  if (!parser.done()) fail(`Unexpected "${parser.peek()!.text}".`);
  return filter;
}

const MAX_LENGTH = 4000;
const MAX_DEPTH = 10;

function fail(detail: string): never {
  throw new KnowledgeError(422, 'invalid_condition', `Invalid condition: ${detail}`);
}

type TokenKind = 'string' | 'word' | 'op' | 'punct';
interface Token {
  kind: TokenKind;
  text: string;
  value?: string;
}

const OPERATORS = ['==', '!=', '>=', '<=', '&&', '||', '=', ':', '>', '<'];
const PUNCT = new Set(['(', ')', '[', ']', ',']);
const WORD = /[^\s()[\],"'=!<>:&|]+/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const ch = text[at]!;
    if (/\s/.test(ch)) {
      at++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = '';
      let end = at + 1;
      for (; end < text.length && text[end] !== ch; end++) {
        if (text[end] === '\\' && end + 1 < text.length) end++;
        value += text[end];
      }
      if (end >= text.length) fail('A quoted value is not closed.');
      tokens.push({ kind: 'string', text: text.slice(at, end + 1), value });
      at = end + 1;
      continue;
    }
    if (PUNCT.has(ch)) {
      tokens.push({ kind: 'punct', text: ch });
      at++;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, at));
    if (op) {
      tokens.push({ kind: 'op', text: op });
      at += op.length;
      continue;
    }
    WORD.lastIndex = at;
    const match = WORD.exec(text);
    if (!match) fail(`Unexpected "${ch}".`);
    tokens.push({ kind: 'word', text: match[0] });
    at += match[0].length;
  }
  return tokens;
}

const COMPARISONS: Record<string, 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'> = {
  '==': 'eq',
  '=': 'eq',
  ':': 'eq',
  '!=': 'ne',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
};

const isWord = (t: Token | undefined, word: string) => t?.kind === 'word' && t.text.toLowerCase() === word;

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token | undefined {
    return this.tokens[this.at];
  }
  done(): boolean {
    return this.at >= this.tokens.length;
  }
  private next(): Token {
    const token = this.tokens[this.at++];
    if (!token) fail('The condition ends too early.');
    return token;
  }
  private expect(text: string): void {
    const token = this.next();
    if (token.text !== text) fail(`Expected "${text}", found "${token.text}".`);
  }

  or(depth: number): MetadataFilter {
    const parts = [this.and(depth)];
    while (isWord(this.peek(), 'or') || this.peek()?.text === '||') {
      this.at++;
      parts.push(this.and(depth));
    }
    return parts.length === 1 ? parts[0]! : { or: parts };
  }

  private and(depth: number): MetadataFilter {
    const parts = [this.unary(depth)];
    for (;;) {
      const t = this.peek();
      if (!(isWord(t, 'and') || t?.text === '&&' || (t?.kind === 'punct' && t.text === ','))) break;
      this.at++;
      parts.push(this.unary(depth));
    }
    return parts.length === 1 ? parts[0]! : { and: parts };
  }

  private unary(depth: number): MetadataFilter {
    if (depth > MAX_DEPTH) fail(`Parentheses nest at most ${MAX_DEPTH} levels.`);
    if (this.peek()?.text === '(') {
      this.at++;
      const inner = this.or(depth + 1);
      this.expect(')');
      return inner;
    }
    return this.comparison();
  }

  private comparison(): MetadataFilter {
    const fieldToken = this.next();
    if (fieldToken.kind !== 'word' && fieldToken.kind !== 'string') {
      fail(`Expected a metadata field, found "${fieldToken.text}".`);
    }
    const raw = fieldToken.value ?? fieldToken.text;
    const field = raw.startsWith('metadata.') ? raw.slice('metadata.'.length) : raw;
    if (!field) fail('A metadata field is empty.');
    const op = this.next();
    if (isWord(op, 'in')) return { field, op: 'in', value: this.list() };
    if (isWord(op, 'contains')) return { field, op: 'contains', value: this.value() };
    const comparison = op.kind === 'op' ? COMPARISONS[op.text] : undefined;
    if (!comparison) fail(`Expected a comparison after "${raw}", found "${op.text}".`);
    return { field, op: comparison, value: this.value() };
  }

  private list(): JsonValue[] {
    this.expect('[');
    const values: JsonValue[] = [];
    while (this.peek()?.text !== ']') {
      values.push(this.value());
      if (this.peek()?.text === ',') this.at++;
      else break;
    }
    this.expect(']');
    if (values.length === 0) fail('"in" takes a non-empty list.');
    return values;
  }

  private value(): JsonValue {
    const token = this.next();
    if (token.kind === 'string') return token.value!;
    if (token.kind !== 'word') fail(`Expected a value, found "${token.text}".`);
    const word = token.text;
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(word)) return Number(word);
    return word;
  }
}

/**
 * The retrieve node's metadata filter: empty for none, a JSON filter of the store language
 * (`{"field":"lang","op":"eq","value":"fr"}`, `{"and":[…]}`), or a condition as `parseCondition` reads it.
 */
export function parseFilterText(text: string | undefined): MetadataFilter | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as MetadataFilter;
    } catch {
      throw new KnowledgeError(
        422,
        'invalid_filter',
        'The metadata filter starts like JSON but is not valid JSON.',
      );
    }
  }
  return parseCondition(trimmed);
}
