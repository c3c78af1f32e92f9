import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@atelier/schemas';

/** `atl_` and 32 random bytes in base64url (43 characters). */
const KEY_FORMAT = /^atl_[A-Za-z0-9_-]{43}$/;
/** Shown in lists: `atl_` and the next eight characters (48 bits: enough to tell keys apart). */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 8;

export const isApiKeyShaped = (token: string) => KEY_FORMAT.test(token);

/**
 * API keys are 256 random bits, so a fast keyed hash is enough to store them (a slow password hash would
 * cost every request): HMAC-SHA256 under a key derived with HKDF from the server's ENCRYPTION_KEY, so a
 * stolen table cannot even be checked against guesses without the server's secret. Changing
 * ENCRYPTION_KEY invalidates the keys (as it does the sealed provider secrets).
 */
export function createApiKeyHasher(encryptionKey: Buffer) {
  const hmacKey = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'atelier/api-key-hash', 32));
  const hash = (key: string) => createHmac('sha256', hmacKey).update(key).digest('hex');
  return {
    hash,
    /** A new key: the key itself (shown once), its prefix and its hash (stored). */
    mint() {
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      return { key, prefix: key.slice(0, SHOWN_LENGTH), hash: hash(key) };
    },
  };
}

export type ApiKeyHasher = ReturnType<typeof createApiKeyHasher>;
