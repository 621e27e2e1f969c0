/** The transport: every request the node sends goes through the per-run client in client.ts. */
export { createPlatformClient, CREDENTIAL_TYPE, DEFAULT_TRANSPORT_POLICY, PlatformClient } from './client';
export type { PlatformClientFactory, TransportPolicy, TransportSeams } from './client';
export { notStartedError, seconds } from './messages';
export type { RateLimitReport } from './pacer';
export type { NotFoundMeaning, PathSegment, PlatformRequest, PlatformRequester, PlatformResponse } from './request';
export type { StopReason } from './stop';
