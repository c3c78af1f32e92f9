import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Opaque tokens (refresh, reset, onboarding): 256 random bits; only their SHA-256 is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// argon2id with the library's defaults (19 MiB, 2 passes), the OWASP minimum recommendation.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A real hash to verify against when the account does not exist, so that the answer takes as
// long as for a wrong password and does not reveal which emails have accounts.
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hash(randomBytes(16).toString('hex'));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/**
 * Verifies one password against several hashes at once (the accounts sharing an email). The
 * verifications run concurrently on the thread pool and all of them run, whichever matches, so
 * the answer takes about as long for one account as for a few.
 */
export function verifyPasswords(passwordHashes: (string | null)[], password: string): Promise<boolean[]> {
  return Promise.all(passwordHashes.map((h) => verifyPassword(h, password)));
}
