import type { ApprovalStatus, ApprovalView } from '../../schemas/approval'

/**
 * A held request as stored: what the inbox shows (masked) plus what sending it needs: the
 * method, the target the catalogue checked and the body, sealed (AES-256-GCM with the session
 * key, by the service) since it may hold an IBAN or a NIF.
 */
export interface StoredApproval extends Omit<ApprovalView, 'createdAt' | 'expiresAt' | 'decidedAt'> {
  method: string
  upstreamPath: string
  /** The upstream call a rejection makes (a refused sign-up's account is removed); none for the rest. */
  onReject?: { method: string; upstreamPath: string; callId?: string }
  /**
   * The upstream call the expiry makes (a sign-up nobody decided is withdrawn), its body sealed
   * (it holds the withdrawal token); null once made, kept until then so the sweep tries again.
   */
  onExpire?: { callId: string; method: string; upstreamPath: string; sealedBody: string | null } | null
  /** The JSON body, sealed; null when the call had none. */
  sealedBody: string | null
  /**
   * The requester's `If-Match`: the version of the record the change was based on, sent with it
   * on approval, so a record changed meanwhile refuses it (412) instead of being overwritten.
   */
  ifMatch?: string
  brandDomain: string
  /**
   * The upstream's answer to the approved request, sealed, for the requester alone to read once
   * (a generated API key's secret is shown only in that answer); dropped once read.
   */
  sealedResult?: string | null
  /** The request that was held (its audit entry). */
  requestId: string
  createdAt: number
  expiresAt: number
  decidedAt?: number
}

/** States a request never leaves: once decided (or expired) it is only kept for the record, until the retention ends. */
export const FINAL_STATUSES: readonly ApprovalStatus[] = ['approved', 'failed', 'rejected', 'expired']

export interface ApprovalListFilter {
  status?: ApprovalStatus[]
  requesterId?: number
  /** Newest first, at most this many. */
  limit: number
}

/**
 * The held requests' store port. Adapters (embedded SQLite, Redis) pass the same test suite.
 * A request changes state only through `transition`, which checks the state it expects
 * atomically: two approvers, or an approval racing the expiry, cannot both win.
 */
export interface ApprovalStore {
  create(approval: StoredApproval): Promise<void>
  get(id: string): Promise<StoredApproval | null>
  list(filter: ApprovalListFilter): Promise<StoredApproval[]>
  /** Applies `patch` (its `status` included) if the request is still in state `from`; null if it is not (or does not exist). */
  transition(id: string, from: ApprovalStatus, patch: Partial<StoredApproval> & { status: ApprovalStatus }): Promise<StoredApproval | null>
  /** Deletes the decided and expired requests decided before `before` (epoch ms); pending and in-flight ones stay. Returns how many went. */
  prune(before: number): Promise<number>
  ping(): Promise<void>
  close(): Promise<void>
}
