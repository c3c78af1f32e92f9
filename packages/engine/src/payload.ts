import { NodeInputError } from './errors';

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Rejects outputs whose JSON is larger than the limit (or that are not JSON at all). */
export function checkPayload(nodeId: string, outputs: unknown, maxBytes: number): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(outputs);
  } catch (error) {
    throw new NodeInputError(`Node ${nodeId} gave outputs that are not JSON: ${(error as Error).message}`);
  }
  if (json === undefined) return;
  // A character takes 1 to 3 UTF-8 bytes: count them only when the length alone does not decide.
  if (json.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > maxBytes) {
    throw new NodeInputError(
      `Node ${nodeId} gave ${size(bytes)} of output, more than the ${size(maxBytes)} a node may pass on.`,
    );
  }
}
