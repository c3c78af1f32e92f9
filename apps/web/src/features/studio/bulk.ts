/** What a bulk grant or revoke did: the users it succeeded and failed for. */
export interface BulkResult {
  succeeded: string[];
  failed: string[];
}

/** Runs one call per user, all at once; a failure never stops the others. */
export async function runBulk(
  userIds: readonly string[],
  call: (userId: string) => Promise<unknown>,
): Promise<BulkResult> {
  const results = await Promise.allSettled(userIds.map((id) => call(id)));
  const result: BulkResult = { succeeded: [], failed: [] };
  results.forEach((r, i) => (r.status === 'fulfilled' ? result.succeeded : result.failed).push(userIds[i]!));
  return result;
}

/** Who a bulk action concerns: granting skips those who have access, revoking those who do not. */
export function bulkTargets(
  userIds: readonly string[],
  withAccess: ReadonlySet<string>,
  action: 'grant' | 'revoke',
): string[] {
  return userIds.filter((id) => withAccess.has(id) === (action === 'revoke'));
}
