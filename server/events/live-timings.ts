/** The rhythm of live events; tests shorten it. */
export interface LiveTimings {
  /** A comment on every stream this often, so no proxy or browser times it out. */
  heartbeatMs: number
  /** A tab not marked again within this no longer views the record (it marks every ~20 s). */
  presenceTtlMs: number
  /** How often a replica rechecks who views what its tabs view. */
  sweepMs: number
  /** Streams one user may hold open on one replica (tabs; a browser allows 6 connections per host over HTTP/1.1). */
  maxStreamsPerUser: number
}

export const LIVE_TIMINGS: LiveTimings = { heartbeatMs: 20_000, presenceTtlMs: 45_000, sweepMs: 5_000, maxStreamsPerUser: 5 }
