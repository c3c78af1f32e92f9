import { describe, expect, it } from 'vitest';
import { bitSketchOf, SKETCH_BITS, sketchOf } from '../src/stores/sketch';
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

  it('a binary sketch: 2,048 signs as hexadecimal, whose differing share estimates the angle', () => {
    const random = seeded(3);
    const bits = (hex: string) =>
      Array.from(Buffer.from(hex.slice(1), 'hex')).flatMap((byte) =>
        Array.from({ length: 8 }, (_, k) => (byte >> (7 - k)) & 1),
      );
    for (const dimension of [1_024, 1_536, 3_072]) {
      const sketch = bitSketchOf(dimension);
      const errors: number[] = [];
      for (let t = 0; t < 100; t++) {
        const a = randomVector(random, dimension);
        // Pairs from the same to unrelated: b leans towards a by a random share.
        const lean = random();
        const b = randomVector(random, dimension).map((x, i) => lean * a[i]! + (1 - lean) * x);
        const [sa, sb] = [sketch(a), sketch(b)];
        expect(sa).toMatch(/^x[0-9a-f]{512}$/);
        expect(sa).toBe(bitSketchOf(dimension)(a));
        const [ba, bb] = [bits(sa), bits(sb)];
        const differing = ba.filter((bit, i) => bit !== bb[i]).length / SKETCH_BITS;
        const angle = Math.acos(dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))) / Math.PI;
        errors.push(Math.abs(differing - angle));
      }
      const mean = errors.reduce((sum, e) => sum + e, 0) / errors.length;
      // The share of 2,048 independent signs errs by about sqrt(0.25 / 2,048) = 0.011 at most.
      expect(mean).toBeLessThan(0.02);
      expect(mean).toBeGreaterThan(0);
    }
    // Only the direction counts; 1,024 dimensions take two rotations, each its own signs.
    const sketch = bitSketchOf(1_024);
    const a = randomVector(random, 1_024);
    expect(sketch(a.map((x) => 3 * x))).toBe(sketch(a));
    const halves = bits(sketch(a));
    expect(halves.slice(0, 1_024)).not.toEqual(halves.slice(1_024));
    expect(() => bitSketchOf(1_536, 12)).toThrow(RangeError);
    // Bit by bit, the signs of the float sketch's rotated coordinates, those within 1e-4 of their root
    // mean square counting as zero (of each rotation in turn, even one shorter than a byte).
    for (const [dimension, width] of [
      [1_536, 2_048],
      [700, 1_024],
      [3, 4],
    ] as const) {
      const v = randomVector(random, dimension);
      const signs = [0, 1].flatMap((r) => {
        const rotated = Array.from(sketchOf(dimension, width, 0x51ce7c4 + r)(v));
        const zero = 1e-4 * Math.sqrt(dot(rotated, rotated) / width);
        return rotated.map((x) => (x > zero ? 1 : 0));
      });
      expect(bits(bitSketchOf(dimension, 2 * width)(v))).toEqual(signs);
    }
    // A bag of words rotates into exact zeros: its float32 copy, as a provider answers it, keeps them.
    const counts = new Array<number>(1_536).fill(0);
    for (let w = 0; w < 60; w++) counts[Math.floor(random() * 40)]! += 1;
    const norm = Math.hypot(...counts);
    const words = counts.map((count) => count / norm);
    const rounded = Array.from(Float32Array.from(words));
    expect(rounded).not.toEqual(words);
    expect(bitSketchOf(1_536)(rounded)).toBe(bitSketchOf(1_536)(words));
  });
});
