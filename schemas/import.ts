import Type from 'typebox'
import { LocalizedText } from './i18n'

/**
 * Bulk import (issue 17): a CSV or XLSX file whose rows are sent one by one through a catalogued
 * call with the user's session. An import is data: its target call, the form whose fields give
 * the columns' rules and labels, an example row and how a batch is undone. The BFF reads the
 * definitions (server/imports/definitions/*.json) at start and checks them against the catalogue
 * and the screens.
 */

const CallId = Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' })
const FieldPath = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.]*$' })

export const ImportDefinition = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    /** The catalogued call each row is sent through: its body fields are the columns. */
    call: CallId,
    title: LocalizedText,
    /** Base name of the template and result files. */
    fileName: Type.String({ pattern: '^[a-z0-9-]+$' }),
    /** The screen form whose fields (and their rules) spell out the call's body, as the form sends it. */
    form: Type.Optional(Type.Object({ screen: Type.String({ pattern: '^[a-z0-9-]+$' }), id: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
    /** Labels of body fields the form does not show (a catalogue label is Spanish only). */
    labels: Type.Optional(Type.Record(FieldPath, LocalizedText)),
    /** One example row of the template, by column. */
    example: Type.Record(FieldPath, Type.Union([Type.String(), Type.Number()])),
    /** The answer field naming the record a row created or changed. */
    recordField: Type.String({ minLength: 1 }),
    /** A column only one row imported into a live draft may hold (a CUPS): a second is refused. */
    unique: Type.Optional(FieldPath),
    /**
     * Bounds an option of a select column carries (a tariff's maximum power): the listed columns
     * may not exceed the chosen option's `maxField`.
     */
    optionLimits: Type.Optional(
      Type.Array(Type.Object({ option: FieldPath, maxField: Type.String({ minLength: 1 }), fields: Type.Array(FieldPath, { minItems: 1 }), unit: Type.Optional(Type.String()) }, { additionalProperties: false })),
    ),
    /** How a batch is undone while nothing else changed its records. */
    undo: Type.Union([
      Type.Object(
        {
          /** Records created: removed through `call` if `read` still shows them as imported (state and version). */
          kind: Type.Literal('delete'),
          call: CallId,
          read: CallId,
          /** The query parameter of `read` and `call` naming the record. */
          param: Type.String({ minLength: 1 }),
          state: Type.Object({ field: Type.String({ minLength: 1 }), equals: Type.String() }, { additionalProperties: false }),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          /** A field changed: its previous value (read from the `read` list before the change) is put back if the field still holds the imported one. */
          kind: Type.Literal('restore'),
          read: CallId,
          /** The body field naming the record (a list filter column too). */
          key: FieldPath,
          field: FieldPath,
        },
        { additionalProperties: false },
      ),
    ]),
  },
  { additionalProperties: false },
)
export type ImportDefinition = Type.Static<typeof ImportDefinition>

/** A column of an import, as the template and the mapping step show it. */
export const ImportColumn = Type.Object({
  name: Type.String(),
  label: LocalizedText,
  required: Type.Boolean(),
  example: Type.String(),
})
export type ImportColumn = Type.Static<typeof ImportColumn>

export const ImportDefinitionView = Type.Object({
  id: Type.String(),
  title: LocalizedText,
  columns: Type.Array(ImportColumn),
  maxRows: Type.Integer(),
  maxBytes: Type.Integer(),
})
export type ImportDefinitionView = Type.Static<typeof ImportDefinitionView>

/** Column name → the file's header it is read from (null: left empty). */
export const ImportMapping = Type.Record(Type.String({ maxLength: 100 }), Type.Union([Type.String({ maxLength: 200 }), Type.Null()]))
export type ImportMapping = Type.Static<typeof ImportMapping>

export const CheckImportBody = Type.Object({ mapping: ImportMapping }, { additionalProperties: false })
export type CheckImportBody = Type.Static<typeof CheckImportBody>

/** A problem of one row: its line in the file (the header is line 1), the column and a Spanish message. */
export const RowProblem = Type.Object({ row: Type.Integer(), column: Type.String(), message: Type.String() })
export type RowProblem = Type.Static<typeof RowProblem>

export const ImportState = Type.Enum(['uploaded', 'checked', 'running', 'done', 'undoing', 'undone'])
export type ImportState = Type.Static<typeof ImportState>

/** What became of a row: created (or changed), held for approval, already imported, refused upstream, invalid (not sent). */
export const RowOutcomeKind = Type.Enum(['created', 'held', 'duplicate', 'failed', 'invalid'])
export type RowOutcomeKind = Type.Static<typeof RowOutcomeKind>

export const RowOutcome = Type.Object({
  row: Type.Integer(),
  outcome: RowOutcomeKind,
  /** The record created or changed (created, duplicate). */
  record: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
})
export type RowOutcome = Type.Static<typeof RowOutcome>

export const UndoReport = Type.Object({
  undone: Type.Integer(),
  /** Records left as they are: changed since the import, or refused. */
  left: Type.Array(Type.Object({ row: Type.Integer(), record: Type.String(), reason: Type.String() })),
})
export type UndoReport = Type.Static<typeof UndoReport>

/** `GET /bff/imports/jobs/:id`: an import as its owner sees it. */
export const ImportJobView = Type.Object({
  id: Type.String(),
  definition: Type.String(),
  fileName: Type.String(),
  state: ImportState,
  headers: Type.Array(Type.String()),
  rowCount: Type.Integer(),
  mapping: ImportMapping,
  /** After the dry run: rows that pass, and the problems (the first MAX_PROBLEMS_SHOWN). */
  check: Type.Optional(Type.Object({ valid: Type.Integer(), invalidRows: Type.Integer(), duplicates: Type.Integer(), problems: Type.Array(RowProblem), problemCount: Type.Integer() })),
  /** Rows sent so far, of `toSend`. */
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  counts: Type.Record(RowOutcomeKind, Type.Integer()),
  outcomes: Type.Array(RowOutcome),
  undo: Type.Optional(UndoReport),
})
export type ImportJobView = Type.Static<typeof ImportJobView>

/** Bounds of an uploaded file. */
export const IMPORT_MAX_ROWS = 10_000
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024
/** Problems listed in a dry run's answer (all of them go to the result file). */
export const MAX_PROBLEMS_SHOWN = 500
