import { describeErrors, screenSchemaCheck } from '../../../schemas/screen-errors'

/**
 * The first schema problem of a screen file, in Spanish with its JSON path, exactly as the BFF
 * words it on save (schemas/screen-errors.ts); null when it passes. The BFF checks again on save,
 * against the call catalogue too.
 */
export function schemaProblem(value: unknown): string | null {
  return screenSchemaCheck().Check(value) ? null : describeErrors(value)
}
