import { describe, expect, it } from 'vitest';
import { password } from '../src/password';
import { passwordProblems } from '../src/password-rules';

describe('password policy', () => {
  it('accepts a password with every required class and length 8', () => {
    expect(passwordProblems('Abcdef1!')).toEqual([]);
    expect(password.safeParse('Abcdef1!').success).toBe(true);
  });

  it('names each missing requirement', () => {
    expect(passwordProblems('')).toEqual([
      'at least 8 characters',
      'an uppercase letter',
      'a lowercase letter',
      'a number',
      'a special character',
    ]);
    expect(passwordProblems('Abcdefg1')).toEqual(['a special character']);
    expect(passwordProblems('Abc1!')).toEqual(['at least 8 characters']);
  });

  it('counts spaces and non-ASCII symbols as special characters', () => {
    expect(passwordProblems('Abc def1')).toEqual([]);
    expect(passwordProblems('Abcdéf12')).toEqual([]);
  });

  it('refuses absurdly long input', () => {
    expect(password.safeParse(`Aa1!${'x'.repeat(300)}`).success).toBe(false);
  });
});
