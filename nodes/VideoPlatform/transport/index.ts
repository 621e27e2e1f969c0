/** The transport: every request the node sends goes through the per-run client in client.ts. */
export { PlatformClient } from './client';
export { notStartedError, seconds } from './messages';
export type { RateLimitReport } from './pacer';
export { quotable } from './platformText';
export type { PlatformRequest, PlatformRequester, PlatformResponse } from './request';
