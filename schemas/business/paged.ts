import Type from 'typebox'
import { CLOSED } from './common'

/** The answer of a paged list (spec §7): one page of items and the total the filters leave. */
export const Paged = <T extends Type.TSchema>(item: T) =>
  Type.Object(
    {
      Items: Type.Array(item),
      TotalCount: Type.Integer({ minimum: 0 }),
      PageIndex: Type.Integer({ minimum: 0 }),
      /** -1 for an export (every row). */
      PageSize: Type.Integer({ minimum: -1 }),
      /** The sum of each summable column (the catalogue's `list.summable`) over every row the filters leave; absent when the call sums none. */
      Totales: Type.Optional(Type.Record(Type.String(), Type.Number())),
    },
    CLOSED,
  )

export interface Paged<T> {
  Items: T[]
  TotalCount: number
  PageIndex: number
  PageSize: number
  Totales?: Record<string, number>
}
