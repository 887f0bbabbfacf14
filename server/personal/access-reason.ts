import { ACCESS_REASON_MAX, ACCESS_REASON_MIN } from '../../schemas/personal-data'
import { HttpError } from '../lib/errors'

/** The reason a user gives to see personal data clear (a reveal, a clear export): kept in the audit beside what was seen. */
export const REASON_MIN = ACCESS_REASON_MIN
export const REASON_MAX = ACCESS_REASON_MAX

/** The reason trimmed, or a Spanish 400 with `message` when it is missing, too short or too long. */
export function checkedReason(raw: unknown, message: string): string {
  const reason = typeof raw === 'string' ? raw.trim() : ''
  if (reason.length < REASON_MIN || reason.length > REASON_MAX) throw new HttpError(400, message)
  return reason
}
