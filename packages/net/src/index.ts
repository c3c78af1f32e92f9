export * from './errors';
export {
  addressKind,
  compileAllow,
  embeddedIPv4,
  isAllowedAddress,
  isMetadataHost,
  parseAddress,
  parseAllowList,
  type AddressCheck,
  type AddressKind,
  type ResolvedAddress,
  type Resolver,
  type UrlPolicy,
  type UrlPolicyMode,
} from './address';
export { assertSafeUrl, guardedLookup } from './guard';
export {
  createGuardedFetch,
  CREDENTIAL_HEADERS,
  guardedRequest,
  guardedStream,
  MAX_REDIRECTS,
  MAX_RESPONSE_BYTES,
  type GuardedFetchOptions,
  type GuardedRequest,
  type GuardedResponse,
  type GuardedStreamResponse,
} from './client';
export { sameOrigin, splitUserinfo, withUserinfo } from './userinfo';
