import { Compile } from 'typebox/compile'
import { Screen } from '../../../schemas/screen'

/** The screen schema, compiled once for the studio's chunk (the BFF checks again on save). */
let check: ReturnType<typeof Compile<typeof Screen>> | null = null

/** The first schema error of a screen file, with its JSON path; null when it passes. */
export function schemaProblem(value: unknown): { path: string; message: string } | null {
  check ??= Compile(Screen)
  if (check.Check(value)) return null
  const first = check.Errors(value)[0] as { instancePath?: string; message?: string } | undefined
  return { path: first?.instancePath ?? '', message: first?.message ?? '' }
}
