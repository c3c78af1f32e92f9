import { act } from 'react';

/** The whole document's text. */
export const pageText = () => document.body.textContent ?? '';

/** The button whose text is exactly `name`. */
export const buttonNamed = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!;

/** Types into a React-controlled input (through the native setter, as a user's input would). */
export function typeInto(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Lets pending promises (a submit's request) settle. */
export const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));
