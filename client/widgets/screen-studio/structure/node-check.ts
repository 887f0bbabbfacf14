import type { ScreenFile } from '../../../../schemas/screen'
import { schemaProblem } from '../schema-check'
import { withValueAt } from './node-outline'

/** The JSON path a schema problem starts with (`/root/children/0/columns/1/header: …`). */
export const problemPath = (problem: string) => problem.slice(0, Math.max(0, problem.indexOf(': ')))

const within = (path: string, pointer: string) => path === pointer || path.startsWith(`${pointer}/`)

/**
 * Why `value` cannot go at `pointer` of the screen: the first schema problem of the screen with
 * it in place, in Spanish with its JSON path, when it lies there or is new; null when it may go.
 * A problem the screen already had elsewhere does not stop an edit here (the editor shows it).
 */
export function problemWith(screen: ScreenFile, pointer: string, value: unknown): string | null {
  const after = schemaProblem(withValueAt(screen, pointer, value))
  if (!after) return null
  return within(problemPath(after), pointer) || after !== schemaProblem(screen) ? after : null
}
