/** A tool name models accept: letters, digits, _ and -, at most 64 characters. */
export const toolName = (name: string, fallback: string): string => {
  const clean = name
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return clean || fallback;
};
