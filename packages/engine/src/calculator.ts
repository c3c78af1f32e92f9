import { NodeInputError } from './errors';

/**
 * A small arithmetic language, parsed by recursive descent (never eval):
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+') unary | power
 *   power   := postfix (('^' | '**') unary)?        right-associative, binds tighter than unary minus
 *   postfix := primary '!'*
 *   primary := number | constant | name '(' expr (',' expr)* ')' | '(' expr ')'
 * Numbers may be written 1_000, 2.5, .5 or 1e3. `-2^2` is -4, as in mathematics.
 */

type Token =
  | { kind: 'num'; value: number; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'op'; value: string; at: number };

const MAX_LENGTH = 1000;
const MAX_DEPTH = 64;

// Maps, not object literals: a name such as "constructor" must not reach Object.prototype.
const CONSTANTS = new Map<string, number>([
  ['pi', Math.PI],
  ['e', Math.E],
  ['tau', 2 * Math.PI],
]);

const fixedArity = (n: number, f: (...args: number[]) => number) => ({ min: n, max: n, f });
const FUNCTIONS = new Map<string, { min: number; max: number; f: (...args: number[]) => number }>(
  Object.entries({
    sqrt: fixedArity(1, Math.sqrt),
    cbrt: fixedArity(1, Math.cbrt),
    abs: fixedArity(1, Math.abs),
    floor: fixedArity(1, Math.floor),
    ceil: fixedArity(1, Math.ceil),
    trunc: fixedArity(1, Math.trunc),
    sign: fixedArity(1, Math.sign),
    exp: fixedArity(1, Math.exp),
    ln: fixedArity(1, Math.log),
    log10: fixedArity(1, Math.log10),
    log2: fixedArity(1, Math.log2),
    sin: fixedArity(1, Math.sin),
    cos: fixedArity(1, Math.cos),
    tan: fixedArity(1, Math.tan),
    asin: fixedArity(1, Math.asin),
    acos: fixedArity(1, Math.acos),
    atan: fixedArity(1, Math.atan),
    pow: fixedArity(2, Math.pow),
    atan2: fixedArity(2, Math.atan2),
    log: {
      min: 1,
      max: 2,
      f: (x, base) => (base === undefined ? Math.log(x) : Math.log(x) / Math.log(base)),
    },
    round: {
      min: 1,
      max: 2,
      f: (x, digits = 0) => {
        const k = 10 ** digits;
        return Math.round(x * k) / k;
      },
    },
    min: { min: 1, max: 100, f: Math.min },
    max: { min: 1, max: 100, f: Math.max },
  }),
);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(input.slice(i));
    if (number) {
      const text = number[0].replaceAll('_', '');
      tokens.push({ kind: 'num', value: Number(text), at: i });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i));
    if (name) {
      tokens.push({ kind: 'name', value: name[0].toLowerCase(), at: i });
      i += name[0].length;
      continue;
    }
    if (input.startsWith('**', i)) {
      tokens.push({ kind: 'op', value: '^', at: i });
      i += 2;
      continue;
    }
    if ('+-*/%^(),!'.includes(c)) {
      tokens.push({ kind: 'op', value: c, at: i });
      i++;
      continue;
    }
    throw new NodeInputError(`Unexpected character "${c}" at position ${i + 1}.`);
  }
  return tokens;
}

function factorial(n: number): number {
  if (!Number.isInteger(n) || n < 0)
    throw new NodeInputError('Factorial needs a whole number of at least 0.');
  if (n > 170) return Infinity;
  let r = 1;
  for (let k = 2; k <= n; k++) r *= k;
  return r;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new NodeInputError('The expression is empty.');
    const value = this.expr();
    const extra = this.tokens[this.pos];
    if (extra) throw new NodeInputError(`Unexpected "${String(extra.value)}" at position ${extra.at + 1}.`);
    return value;
  }

  private peekOp(...ops: string[]): string | null {
    const t = this.tokens[this.pos];
    return t?.kind === 'op' && ops.includes(t.value) ? t.value : null;
  }

  private expect(op: string): void {
    if (!this.peekOp(op)) {
      const t = this.tokens[this.pos];
      throw new NodeInputError(
        t ? `Expected "${op}" at position ${t.at + 1}.` : `Expected "${op}" at the end of the expression.`,
      );
    }
    this.pos++;
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new NodeInputError('The expression is nested too deeply.');
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private expr(): number {
    let value = this.term();
    for (let op = this.peekOp('+', '-'); op; op = this.peekOp('+', '-')) {
      this.pos++;
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peekOp('*', '/', '%'); op; op = this.peekOp('*', '/', '%')) {
      this.pos++;
      const right = this.unary();
      if ((op === '/' || op === '%') && right === 0) throw new NodeInputError('Division by zero.');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp('-', '+');
    if (op) {
      this.pos++;
      const value = this.nested(() => this.unary());
      return op === '-' ? -value : value;
    }
    return this.power();
  }

  private power(): number {
    const base = this.postfix();
    if (!this.peekOp('^')) return base;
    this.pos++;
    return base ** this.nested(() => this.unary());
  }

  private postfix(): number {
    let value = this.primary();
    while (this.peekOp('!')) {
      this.pos++;
      value = factorial(value);
    }
    return value;
  }

  private primary(): number {
    const t = this.tokens[this.pos];
    if (!t) throw new NodeInputError('The expression ends too early.');
    this.pos++;
    if (t.kind === 'num') return t.value;
    if (t.kind === 'op') {
      if (t.value !== '(') throw new NodeInputError(`Unexpected "${t.value}" at position ${t.at + 1}.`);
      const value = this.nested(() => this.expr());
      this.expect(')');
      return value;
    }
    if (!this.peekOp('(')) {
      const constant = CONSTANTS.get(t.value);
      if (constant === undefined)
        throw new NodeInputError(`Unknown name "${t.value}" at position ${t.at + 1}.`);
      return constant;
    }
    const fn = FUNCTIONS.get(t.value);
    if (!fn) throw new NodeInputError(`Unknown function "${t.value}" at position ${t.at + 1}.`);
    this.pos++;
    const args: number[] = [];
    if (!this.peekOp(')')) {
      args.push(this.nested(() => this.expr()));
      while (this.peekOp(',')) {
        this.pos++;
        args.push(this.nested(() => this.expr()));
      }
    }
    this.expect(')');
    if (args.length < fn.min || args.length > fn.max) {
      const count = fn.min === fn.max ? `${fn.min}` : `${fn.min} to ${fn.max}`;
      throw new NodeInputError(`${t.value} takes ${count} argument${fn.max === 1 ? '' : 's'}.`);
    }
    return fn.f(...args);
  }
}

/** Evaluates an arithmetic expression; throws a NodeInputError saying what is wrong with it. */
export function evaluateExpression(expression: string): number {
  if (expression.length > MAX_LENGTH)
    throw new NodeInputError(`The expression is longer than ${MAX_LENGTH} characters.`);
  const value = new Parser(tokenize(expression)).parse();
  if (!Number.isFinite(value)) throw new NodeInputError('The result is not a finite number.');
  // Hide binary floating-point noise such as 0.1 + 0.2 = 0.30000000000000004.
  return Number.parseFloat(value.toPrecision(15));
}
