import { createHmac } from 'node:crypto';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand, so tests can present expired, mis-signed and unsigned tokens. */
export function forgeJwt(payload: object, options: { secret?: string; alg?: string } = {}): string {
  const alg = options.alg ?? 'HS256';
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}`;
  if (alg === 'none') return `${head}.`;
  const signature = createHmac('sha256', options.secret ?? 'wrong')
    .update(head)
    .digest('base64url');
  return `${head}.${signature}`;
}
