import Type from 'typebox'

/**
 * Pieces shared by the business shapes. Objects are closed (`additionalProperties: false`)
 * where the reference API's answer is fully known, so a renamed or extra field is caught by
 * the contract test of the answers (tests/contract/answers.test.ts).
 */

export const CLOSED = { additionalProperties: false } as const

/** A value or `null`. */
export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A day, `YYYY-MM-DD`. */
export const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
/** An instant, ISO 8601 (`2026-11-01T10:00:00Z`). */
export const Instant = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}' })

/** A value per tariff period P1…P6; `null` for the periods a tariff does not have. */
export const PorPeriodo = Type.Object(
  { P1: Nullable(Type.Number()), P2: Nullable(Type.Number()), P3: Nullable(Type.Number()), P4: Nullable(Type.Number()), P5: Nullable(Type.Number()), P6: Nullable(Type.Number()) },
  CLOSED,
)
export type PorPeriodo = Type.Static<typeof PorPeriodo>
