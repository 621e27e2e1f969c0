/** The transport: every request the node sends goes through the per-run client in client.ts. */
export { createPlatformClient, PlatformClient } from './client';
export type { PlatformClientFactory } from './client';
export { CREDENTIAL_TYPE } from './credential';
export type { RateLimitReport } from './pacer';
export { DEFAULT_TRANSPORT_POLICY } from './policy';
export type { SafeRetryPolicy, TransportPolicy, TransportSeams } from './policy';
export type { NotFoundMeaning, PathSegment, PlatformRequest, PlatformRequester, PlatformResponse } from './request';
