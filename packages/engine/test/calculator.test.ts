import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../src';

describe('evaluateExpression', () => {
  it('follows operator precedence and associativity', () => {
    expect(evaluateExpression('2 + 3 * 4')).toBe(14);
    expect(evaluateExpression('10 - 4 - 3')).toBe(3);
    expect(evaluateExpression('100 / 10 / 5')).toBe(2);
    expect(evaluateExpression('2 ^ 3 ^ 2')).toBe(512);
    expect(evaluateExpression('2 ** 10')).toBe(1024);
    expect(evaluateExpression('17 % 5 * 2')).toBe(4);
  });

  it('honours parentheses', () => {
    expect(evaluateExpression('(2 + 3) * 4')).toBe(20);
    expect(evaluateExpression('((1 + 2) * (3 + 4)) / 7')).toBe(3);
  });

  it('handles unary minus and plus', () => {
    expect(evaluateExpression('-3 + 5')).toBe(2);
    expect(evaluateExpression('--3')).toBe(3);
    expect(evaluateExpression('2 * -3')).toBe(-6);
    expect(evaluateExpression('-2 ^ 2')).toBe(-4);
    expect(evaluateExpression('(-2) ^ 2')).toBe(4);
    expect(evaluateExpression('2 ^ -1')).toBe(0.5);
    expect(evaluateExpression('+4')).toBe(4);
  });

  it('knows functions and constants', () => {
    expect(evaluateExpression('sqrt(16) + abs(-2)')).toBe(6);
    expect(evaluateExpression('round(3.14159, 2)')).toBe(3.14);
    expect(evaluateExpression('round(2.5)')).toBe(3);
    expect(evaluateExpression('max(1, 7, 3) - min(4, 2)')).toBe(5);
    expect(evaluateExpression('log(8, 2)')).toBe(3);
    expect(evaluateExpression('log10(1000)')).toBe(3);
    expect(evaluateExpression('floor(2.7) + ceil(2.1)')).toBe(5);
    expect(evaluateExpression('round(2 * pi, 4)')).toBe(6.2832);
    expect(evaluateExpression('5!')).toBe(120);
    expect(evaluateExpression('SQRT(9)')).toBe(3);
  });

  it('reads number forms and hides floating-point noise', () => {
    expect(evaluateExpression('1_000 * .5')).toBe(500);
    expect(evaluateExpression('1.5e3')).toBe(1500);
    expect(evaluateExpression('0.1 + 0.2')).toBe(0.3);
  });

  it('refuses junk with a message saying what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['2 +', /ends too early/],
      ['(2 + 3', /Expected "\)"/],
      ['2 3', /Unexpected "3"/],
      ['2(3)', /Unexpected "\("/],
      ['process.exit(1)', /Unexpected character "\."|Unknown name/],
      ['constructor', /Unknown name "constructor"/],
      ['alert(1)', /Unknown function "alert"/],
      ['1; 2', /Unexpected character ";"/],
      ['"a" + 1', /Unexpected character/],
      ['sqrt(1, 2)', /sqrt takes 1 argument/],
      ['1 / 0', /Division by zero/],
      ['10 ^ 400', /not a finite number/],
      ['(-1)!', /whole number/],
      ['x', /Unknown name "x"/],
    ];
    for (const [expression, message] of cases) {
      expect(() => evaluateExpression(expression), expression).toThrow(message);
    }
    expect(() => evaluateExpression('('.repeat(200) + '1' + ')'.repeat(200))).toThrow(/nested too deeply/);
    expect(() => evaluateExpression('1+'.repeat(600) + '1')).toThrow(/longer than 1000/);
  });
});
