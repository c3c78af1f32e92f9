import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { invalid } from './errors';
import type { Exchange } from './types';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sendBytes(res: ServerResponse, contentType: string, bytes: Buffer | string): void {
  res.writeHead(200, { 'content-type': contentType });
  res.end(bytes);
}

export const randomId = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function requireObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw invalid('We could not parse the JSON body of your request.');
  return body;
}

export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw invalid(`Missing required parameter: '${field}'.`);
  return value;
}

/** Azure names the model by deployment in the path; everyone else sends `model` in the body. */
export function requireModel(ex: Exchange, body: Record<string, unknown>): string {
  return ex.deployment ?? requireString(body, 'model');
}
