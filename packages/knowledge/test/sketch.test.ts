import { describe, expect, it } from 'vitest';
import { sketchOf } from '../src/stores/sketch';
import { randomVector, seeded } from './store-contract';

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

describe('sketch', () => {
  it('is the same for the same vector in every process (a fixed seed), and linear', () => {
    const random = seeded(1);
    const a = randomVector(random, 1_536);
    const b = randomVector(random, 1_536);
    const sketch = sketchOf(1_536, 512);
    expect(sketch(a)).toHaveLength(512);
    expect(Array.from(sketch(a))).toEqual(Array.from(sketchOf(1_536, 512)(a)));
    const sum = sketch(a.map((x, i) => x + 2 * b[i]!));
    const parts = sketch(a).map((x, i) => x + 2 * sketch(b)[i]!);
    sum.forEach((x, i) => expect(x).toBeCloseTo(parts[i]!, 3));
    // The first coordinate spreads evenly over all (a Hadamard matrix's first column is all ones).
    const first = sketch(Array.from({ length: 1_536 }, (_, i) => (i === 0 ? 1 : 0)));
    expect(new Set(Array.from(first, (x) => Math.abs(x).toFixed(6)))).toEqual(
      new Set([(1 / Math.sqrt(512)).toFixed(6)]),
    );
    expect(new Set(Array.from(first, Math.sign)).size).toBe(1);
    // Another seed is another sketch.
    expect(Array.from(sketchOf(1_536, 512, 7)(a))).not.toEqual(Array.from(sketch(a)));
  });

  it('keeps norms and inner products within a few hundredths, even of sparse vectors', () => {
    const random = seeded(2);
    const sketch = sketchOf(1_536, 512);
    const unit = (v: number[]) => {
      const n = Math.sqrt(dot(v, v));
      return v.map((x) => x / n);
    };
    const errors: number[] = [];
    for (let t = 0; t < 200; t++) {
      // A bag of words: 30 of 1,536 coordinates, the other shares 10 of them.
      const a = new Array<number>(1_536).fill(0);
      const b = new Array<number>(1_536).fill(0);
      const words = Array.from({ length: 30 }, () => Math.floor(random() * 1_536));
      for (const word of words) a[word] = 1;
      for (const word of words.slice(0, 10)) b[word] = 1;
      for (let k = 0; k < 20; k++) b[Math.floor(random() * 1_536)] = 1;
      const [ua, ub] = [unit(a), unit(b)];
      const [sa, sb] = [sketch(ua), sketch(ub)];
      expect(dot(sa, sa)).toBeGreaterThan(0.75);
      expect(dot(sa, sa)).toBeLessThan(1.25);
      errors.push(Math.abs(dot(sa, sb) - dot(ua, ub)));
    }
    const mean = errors.reduce((s, e) => s + e, 0) / errors.length;
    // The expected error of 512 numbers is about 1/sqrt(512) = 0.044 at most.
    expect(mean).toBeLessThan(0.06);
    expect(mean).toBeGreaterThan(0); // a sketch, not the vector
  });

  it('refuses a vector of another dimension and a sketch wider than the rotation', () => {
    expect(() => sketchOf(1_536, 512)([1, 2, 3])).toThrow(/expected 1536 dimensions, got 3/);
    expect(() => sketchOf(100, 512)).toThrow(/1 to 128 numbers/);
    expect(() => sketchOf(1_536, 0)).toThrow(RangeError);
  });
});
