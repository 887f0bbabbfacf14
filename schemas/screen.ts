import Type from 'typebox'
import { DraftKey } from './draft'
import { ScreenRoute } from './manifest'
import { MenuPlacement } from './menu'
import type { NodeTypeName } from './screen-node-types'

export { NODE_TYPES, isNodeType, type NodeTypeName } from './screen-node-types'

/**
 * A screen is data: a tree of nodes discriminated by `type` (fields and filters say their kind
 * with `input`, so the two never share a key), served by the BFF as JSON and
 * drawn by the client's one generic renderer. Texts are Spanish, optionally with English.
 *
 * Templates: strings may hold `{path}` placeholders resolved against the node's context —
 * `{row.X}` (a table row), `{data.X}` (a detail/form's loaded data), `{values.X}` (form
 * values), `{params.X}` (route parameters), `{query.X}` (URL query), `{user.id}` (signed-in
 * user), `{selected.X}` (array of X of the selected rows), `{result.X}` (answer of the call
 * just made). A string that is exactly one placeholder keeps the value's type.
 */

/**
 * The current version of the screen file format; the loader upgrades older files
 * (server/screens/screen-loader.ts, SCREEN_MIGRATIONS). 2: fields and filters name their kind
 * with `input` instead of `type`.
 */
export const SCREEN_SCHEMA_VERSION = 2

export const Text = Type.Union([Type.String({ minLength: 1 }), Type.Object({ es: Type.String({ minLength: 1 }), en: Type.Optional(Type.String()) }, { additionalProperties: false })])
export type Text = Type.Static<typeof Text>

/** An `api/...` path of the upstream (spec §7) or a `bff/...` path of the BFF, possibly with `{placeholders}`. */
const ApiPath = Type.String({ pattern: '^(api|bff)/[A-Za-z0-9/_{}.-]+$' })
/** Parameters or body: values are literals or templates. */
const Params = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))
/**
 * A call's body: the form's `values`, the table's `row`, the `record` a versioned form was loaded
 * from with the form's values written at their `initial.map` paths (a PUT that takes the record
 * as its GET returned it), or a template.
 */
const BodySpec = Type.Union([Type.Literal('values'), Type.Literal('row'), Type.Literal('record'), Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown()), Type.String()])
const HttpMethod = Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')])
const Severity = Type.Enum(['success', 'info', 'warning', 'danger', 'secondary', 'contrast', 'help'])
const Identifier = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$' })

/** When something shows: a field of the context equals (or is one of) a value. */
export const Condition = Type.Object(
  {
    field: Type.String({ minLength: 1 }),
    equals: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
    in: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    notIn: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    truthy: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type Condition = Type.Static<typeof Condition>

export const Option = Type.Object({ value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), label: Text, severity: Type.Optional(Severity) }, { additionalProperties: false })
export type Option = Type.Static<typeof Option>

/** Options fetched from an endpoint: which field is the value and which the label. */
export const OptionSource = Type.Object(
  {
    /** Where the items come from: an endpoint, or (`from`) a list already in the context, e.g. `row.Permisos`. */
    endpoint: Type.Optional(ApiPath),
    from: Type.Optional(Type.String()),
    params: Type.Optional(Params),
    /** Where the array is in the answer (dotted path); the answer itself when absent. */
    path: Type.Optional(Type.String()),
    valueField: Type.String(),
    labelField: Type.String(),
    /** Label template using fields of the item, e.g. "{Codigo} — {Nombre}", in the user's language. */
    labelTemplate: Type.Optional(Text),
    /** Drop items whose label field is missing or empty (e.g. provinces without Nombre). */
    requireLabel: Type.Optional(Type.Boolean()),
    /** Sort by label with Spanish collation. */
    sortByLabel: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type OptionSource = Type.Static<typeof OptionSource>

export const Options = Type.Union([Type.Array(Option), OptionSource])

/** An HTTP call a screen makes. */
export const CallSpec = Type.Object(
  {
    method: HttpMethod,
    endpoint: ApiPath,
    params: Type.Optional(Params),
    body: Type.Optional(BodySpec),
  },
  { additionalProperties: false },
)
export type CallSpec = Type.Static<typeof CallSpec>

/** What happens after a form submit or an action succeeded. */
export const AfterSpec = Type.Object(
  {
    toast: Type.Optional(Text),
    closeDialog: Type.Optional(Type.Boolean()),
    /** Ids of tables (and details) to reload. */
    refresh: Type.Optional(Type.Array(Identifier)),
    navigate: Type.Optional(Type.String({ pattern: '^/' })),
    /** Show a field of the answer once, with a copy button (e.g. a new API key). */
    reveal: Type.Optional(Type.Object({ field: Type.String(), title: Text, message: Type.Optional(Text) }, { additionalProperties: false })),
    reset: Type.Optional(Type.Boolean()),
    /** Who the user is has changed (view-as): the app starts again at this path, with a new manifest. */
    restart: Type.Optional(Type.String({ pattern: '^/' })),
  },
  { additionalProperties: false },
)
export type AfterSpec = Type.Static<typeof AfterSpec>

/** Where errors of a call go: the toast title (area) and the call's own message (spec §8), in the user's language. */
const ErrorSpec = {
  errorArea: Type.Optional(Text),
  errorMessage: Type.Optional(Text),
}

// ── form ────────────────────────────────────────────────────────────────────

export const FieldType = Type.Enum(['text', 'email', 'password', 'number', 'select', 'multiselect', 'date', 'checkbox', 'textarea', 'file'])
export type FieldType = Type.Static<typeof FieldType>

export const Field = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.]*$' }),
    label: Text,
    /** The kind of input (`input`, not `type`: that key names a node). */
    input: FieldType,
    required: Type.Optional(Type.Boolean()),
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    step: Type.Optional(Type.Number()),
    /** A regular expression the value must match, with the Spanish message when it does not. */
    pattern: Type.Optional(Type.Object({ regex: Type.String(), message: Text }, { additionalProperties: false })),
    /** Must equal another field (password confirmation). */
    sameAs: Type.Optional(Type.Object({ field: Type.String(), message: Text }, { additionalProperties: false })),
    /** A number not below another field's (contracted powers P1 ≤ P2 ≤ …). */
    notBelow: Type.Optional(Type.Object({ field: Type.String(), message: Text }, { additionalProperties: false })),
    /** Once the value is valid, look it up (an existing client by NIF) and fill other fields from the answer. */
    lookup: Type.Optional(
      Type.Object(
        {
          endpoint: ApiPath,
          param: Type.String(),
          /** Form field → path in the answer. */
          fill: Type.Record(Type.String(), Type.String()),
          /** Shown when found (template over the answer as {result.X}). */
          found: Text,
          ...ErrorSpec,
        },
        { additionalProperties: false },
      ),
    ),
    /** Once the value is valid, ask the server about it and warn (never block) when the answer says so. */
    check: Type.Optional(
      Type.Object(
        {
          call: CallSpec,
          warnWhen: Condition,
          /** Template over the answer as {result.X}. */
          message: Text,
        },
        { additionalProperties: false },
      ),
    ),
    /** File fields: accepted extensions (".pdf,.jpg") and whether several files may be chosen. */
    accept: Type.Optional(Type.String()),
    multiple: Type.Optional(Type.Boolean()),
    maxSizeMb: Type.Optional(Type.Number({ minimum: 0.1, maximum: 100 })),
    options: Type.Optional(Options),
    /** Server validator called as the user types (debounced): `GET endpoint?param=value`. */
    validator: Type.Optional(
      Type.Object(
        {
          endpoint: ApiPath,
          param: Type.String(),
          validField: Type.String(),
          messageField: Type.String(),
          /** Replace the typed value with this field of the answer (normalised form). */
          normalizedField: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    placeholder: Type.Optional(Text),
    help: Type.Optional(Text),
    defaultValue: Type.Optional(Type.Unknown()),
    visibleWhen: Type.Optional(Condition),
    disabled: Type.Optional(Type.Boolean()),
    /** Spread over the form's full width in a two-column layout. */
    wide: Type.Optional(Type.Boolean()),
    autoComplete: Type.Optional(Type.String()),
    /** Leave out of the submitted body (e.g. a confirmation field). */
    exclude: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type Field = Type.Static<typeof Field>

// ── table ───────────────────────────────────────────────────────────────────

/**
 * `changes`: a list of `{ field, before, after }` (a record's changed fields, as the audit keeps them), one per line.
 * `tags`: a list of short values (an API key's scopes), each drawn as a tag.
 */
export const ColumnFormat = Type.Enum(['text', 'number', 'integer', 'money', 'energy', 'power', 'percent', 'date', 'datetime', 'boolean', 'badge', 'link', 'code', 'changes', 'tags'])
export type ColumnFormat = Type.Static<typeof ColumnFormat>

export const ColumnFilter = Type.Object(
  {
    /** The kind of filter (`input`, not `type`: that key names a node). */
    input: Type.Enum(['text', 'select', 'multiselect', 'dateRange', 'numberRange', 'boolean']),
    options: Type.Optional(Options),
    /** Column name the upstream filters on, when not the column's field. */
    column: Type.Optional(Type.String()),
    placeholder: Type.Optional(Text),
  },
  { additionalProperties: false },
)
export type ColumnFilter = Type.Static<typeof ColumnFilter>

export const Column = Type.Object(
  {
    field: Type.String({ minLength: 1 }),
    header: Text,
    format: Type.Optional(ColumnFormat),
    sortable: Type.Optional(Type.Boolean()),
    /** Column name the upstream sorts on, when not the column's field. */
    sortField: Type.Optional(Type.String()),
    filter: Type.Optional(ColumnFilter),
    /** Badges: a label and colour per value. */
    badges: Type.Optional(Type.Record(Type.String(), Type.Object({ label: Type.Optional(Text), severity: Type.Optional(Severity), color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })) }, { additionalProperties: false }))),
    /** Row field with the badge's colour (hex) when the answer carries it. */
    colorField: Type.Optional(Type.String()),
    /** Row field shown as the badge's text, when not the value itself. */
    labelField: Type.Optional(Type.String()),
    /** For `link`: where the cell leads (template). */
    link: Type.Optional(Type.String({ pattern: '^/' })),
    /** For a list of objects: the field of each item shown, joined with commas. */
    itemField: Type.Optional(Type.String()),
    /** Hidden until the user picks it in the column chooser. */
    hidden: Type.Optional(Type.Boolean()),
    width: Type.Optional(Type.String()),
    align: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')])),
  },
  { additionalProperties: false },
)
export type Column = Type.Static<typeof Column>

// ── nodes (recursive) ───────────────────────────────────────────────────────

export const Screen = Type.Cyclic(
  {
    Action: Type.Object(
      {
        id: Identifier,
        label: Text,
        icon: Type.Optional(Type.String({ pattern: '^pi pi-[a-z0-9-]+$' })),
        kind: Type.Union([Type.Literal('navigate'), Type.Literal('call'), Type.Literal('download'), Type.Literal('form'), Type.Literal('dialog')]),
        /** Removed by the BFF for users without it. */
        permission: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]+$' })),
        severity: Type.Optional(Severity),
        /** Confirmation text asked before running. */
        confirm: Type.Optional(Text),
        /** navigate: the target (template). */
        to: Type.Optional(Type.String({ pattern: '^/' })),
        /**
         * navigate: back to the portal page the user came from, as they left it (a list with its
         * filters, page and sort), as the browser's Back does; `to` where there is none (the page
         * was opened from a link, a bookmark or a new tab).
         */
        back: Type.Optional(Type.Boolean()),
        /** call / download: the request. */
        call: Type.Optional(CallSpec),
        /** form: the form opened in a dialog. */
        form: Type.Optional(Type.Ref('Form')),
        /** dialog: nodes shown in a dialog (a hierarchy, a detail), with the action's context. */
        content: Type.Optional(Type.Array(Type.Ref('Node'))),
        dialogTitle: Type.Optional(Text),
        /** Dialog width; spec §9 default 25vw. */
        dialogWidth: Type.Optional(Type.String()),
        success: Type.Optional(Text),
        after: Type.Optional(AfterSpec),
        visibleWhen: Type.Optional(Condition),
        ...ErrorSpec,
      },
      { additionalProperties: false },
    ),
    Form: Type.Object(
      {
        type: Type.Literal('form'),
        id: Identifier,
        title: Type.Optional(Text),
        fields: Type.Array(Field, { minItems: 1 }),
        /** Initial values loaded from an endpoint; `map` names, per field, the path in the answer; `when` loads only if true. */
        initial: Type.Optional(
          Type.Object(
            {
              endpoint: ApiPath,
              params: Type.Optional(Params),
              path: Type.Optional(Type.String()),
              map: Type.Optional(Type.Record(Type.String(), Type.String())),
              when: Type.Optional(Condition),
              /**
               * The loaded record is a version being edited (no lost updates): its ETag goes back
               * as If-Match on submit, and a 412 shows, field by field, what the other person
               * changed beside what this user typed, to re-apply over the new version or discard.
               */
              versioned: Type.Optional(Type.Boolean()),
              /**
               * The loaded record is the template of a new one (a duplicate): values that arrive
               * masked (personal data) cannot be copied, so they start empty and the form names
               * them. Without it, the form saves the record it loaded, and a masked value left as
               * shown is put back by the BFF.
               */
              copy: Type.Optional(Type.Boolean()),
              ...ErrorSpec,
            },
            { additionalProperties: false },
          ),
        ),
        /** A step-by-step form: each step names its fields and may show nodes (a live price panel); a review step ends it. */
        steps: Type.Optional(
          Type.Array(
            Type.Object(
              {
                key: Identifier,
                title: Text,
                description: Type.Optional(Text),
                fields: Type.Array(Type.String()),
                nodes: Type.Optional(Type.Array(Type.Ref('Node'))),
              },
              { additionalProperties: false },
            ),
            { minItems: 1 },
          ),
        ),
        /** Add a last step listing every answer before submitting. */
        review: Type.Optional(Type.Object({ title: Text, description: Type.Optional(Text) }, { additionalProperties: false })),
        /**
         * Keep what the user types as a draft on the server (`/bff/drafts/:key`, per user, 7 days)
         * until the submit succeeds: restored on reload or on another device. Passwords and files
         * are never kept. The key names the draft; two forms sharing one share the draft.
         */
        draft: Type.Optional(Type.Object({ key: DraftKey }, { additionalProperties: false })),
        /** How the body travels: JSON (default) or multipart/form-data (file fields). */
        encoding: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('multipart')])),
        submit: CallSpec,
        submitLabel: Type.Optional(Text),
        submitIcon: Type.Optional(Type.String()),
        after: Type.Optional(AfterSpec),
        columns: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
        ...ErrorSpec,
      },
      { additionalProperties: false },
    ),
    Node: Type.Union([
      Type.Object(
        {
          type: Type.Literal('page'),
          title: Type.Optional(Text),
          /** Title template filled from the first detail's data (e.g. "Usuario {data.Email}"). */
          description: Type.Optional(Text),
          actions: Type.Optional(Type.Array(Type.Ref('Action'))),
          children: Type.Array(Type.Ref('Node')),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          type: Type.Literal('tabs'),
          id: Type.Optional(Identifier),
          tabs: Type.Array(
            Type.Object({ key: Identifier, label: Text, icon: Type.Optional(Type.String()), children: Type.Array(Type.Ref('Node')) }, { additionalProperties: false }),
            { minItems: 1 },
          ),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          type: Type.Literal('table'),
          id: Identifier,
          title: Type.Optional(Text),
          source: Type.Object(
            {
              /** The list's endpoint; or, with `fromData`, none: the rows are a list inside the enclosing detail's data. */
              endpoint: Type.Optional(ApiPath),
              fromData: Type.Optional(Type.String()),
              params: Type.Optional(Params),
              /** Where the rows are in the answer (dotted path); `Items` by default. */
              rowsPath: Type.Optional(Type.String()),
              /** Where the total is; `TotalCount` by default. */
              totalPath: Type.Optional(Type.String()),
              /** false: the endpoint returns every row and the table pages, sorts and filters them itself. */
              paged: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          dataKey: Type.String({ minLength: 1 }),
          columns: Type.Array(Column, { minItems: 1 }),
          defaultSort: Type.Optional(Type.Object({ field: Type.String(), order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) }, { additionalProperties: false })),
          pageSizes: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 500 }))),
          /** Larger page sizes offered after `pageSizes`, drawn with a virtual scroller (fetched in pages the upstream serves). */
          virtualPageSizes: Type.Optional(Type.Array(Type.Integer({ minimum: 101, maximum: 10000 }))),
          export: Type.Optional(Type.Object({ endpoint: ApiPath, params: Type.Optional(Params), fileName: Type.Optional(Text), ...ErrorSpec }, { additionalProperties: false })),
          rowLink: Type.Optional(Type.String({ pattern: '^/' })),
          rowActions: Type.Optional(Type.Array(Type.Ref('Action'))),
          bulkActions: Type.Optional(Type.Array(Type.Ref('Action'))),
          /** Actions in the table's toolbar (create…). */
          actions: Type.Optional(Type.Array(Type.Ref('Action'))),
          /** Keep page, sort and filters in the URL (the screen's main table). */
          urlState: Type.Optional(Type.Boolean()),
          emptyMessage: Type.Optional(Text),
          ...ErrorSpec,
        },
        { additionalProperties: false },
      ),
      Type.Ref('Form'),
      Type.Object(
        {
          type: Type.Literal('detail'),
          id: Type.Optional(Identifier),
          title: Type.Optional(Text),
          /** An endpoint, or (`fromData`) a path inside the enclosing detail's data. */
          source: Type.Object(
            { endpoint: Type.Optional(ApiPath), fromData: Type.Optional(Type.String()), params: Type.Optional(Params), path: Type.Optional(Type.String()) },
            { additionalProperties: false },
          ),
          sections: Type.Array(
            Type.Object(
              {
                title: Type.Optional(Text),
                fields: Type.Array(
                  Type.Object(
                    {
                      field: Type.String(),
                      label: Text,
                      format: Type.Optional(ColumnFormat),
                      badges: Type.Optional(Type.Record(Type.String(), Type.Object({ label: Type.Optional(Text), severity: Type.Optional(Severity) }, { additionalProperties: false }))),
                      link: Type.Optional(Type.String()),
                      itemField: Type.Optional(Type.String()),
                      colorField: Type.Optional(Type.String()),
                      labelField: Type.Optional(Type.String()),
                    },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
          actions: Type.Optional(Type.Array(Type.Ref('Action'))),
          /** Nodes drawn under the detail with its data in context ({data.X}). */
          children: Type.Optional(Type.Array(Type.Ref('Node'))),
          ...ErrorSpec,
        },
        { additionalProperties: false },
      ),
      Type.Object({ type: Type.Literal('action'), action: Type.Ref('Action') }, { additionalProperties: false }),
      Type.Object(
        {
          type: Type.Literal('markdown'),
          /** Markdown text, or a file under server/screens/docs/ inlined by the BFF at boot. */
          content: Type.Optional(Text),
          file: Type.Optional(Type.String({ pattern: '^[a-z0-9/-]+\\.md$' })),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          type: Type.Literal('links'),
          /** Cards leading to routes; the BFF drops those the user may not open. */
          items: Type.Array(
            Type.Object({ to: Type.String({ pattern: '^/' }), label: Text, description: Type.Optional(Text), icon: Type.Optional(Type.String()) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          type: Type.Literal('tree'),
          id: Type.Optional(Identifier),
          title: Type.Optional(Text),
          /** The answer is one root node or an array of roots. */
          source: Type.Object({ endpoint: ApiPath, params: Type.Optional(Params), path: Type.Optional(Type.String()) }, { additionalProperties: false }),
          childrenField: Type.String(),
          keyField: Type.String(),
          /** Label template over each node's fields, e.g. "{Codigo} — {Nombre}", in the user's language. */
          label: Text,
          /** Smaller text after the label (template), in the user's language. */
          detail: Type.Optional(Text),
          /** Open every level at first. */
          expanded: Type.Optional(Type.Boolean()),
          emptyMessage: Type.Optional(Text),
          ...ErrorSpec,
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          type: Type.Literal('widget'),
          /** A hand-written component of client/widgets, by name. */
          name: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
          props: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        },
        { additionalProperties: false },
      ),
    ]),
    ScreenFile: Type.Object(
      {
        schemaVersion: Type.Integer({ minimum: 1 }),
        id: Type.String({ pattern: '^[a-z0-9-]+$' }),
        title: Text,
        /** The routes that draw this screen: the route manifest is derived from these at boot. */
        routes: Type.Optional(Type.Array(ScreenRoute, { minItems: 1 })),
        /** Its entry in the shipped side menu, which is derived from these at boot. */
        menu: Type.Optional(MenuPlacement),
        root: Type.Ref('Node'),
      },
      { additionalProperties: false },
    ),
  },
  'ScreenFile',
)

export type ScreenFile = Type.Static<typeof Screen>
export type ScreenNode = ScreenFile['root']
export type ActionSpec = NonNullable<Extract<ScreenNode, { type: 'action' }>['action']>
export type FormNode = Extract<ScreenNode, { type: 'form' }>
export type TableNode = Extract<ScreenNode, { type: 'table' }>
export type DetailNode = Extract<ScreenNode, { type: 'detail' }>
export type PageNode = Extract<ScreenNode, { type: 'page' }>
export type TabsNode = Extract<ScreenNode, { type: 'tabs' }>
export type MarkdownNode = Extract<ScreenNode, { type: 'markdown' }>
export type LinksNode = Extract<ScreenNode, { type: 'links' }>
export type WidgetNode = Extract<ScreenNode, { type: 'widget' }>
export type TreeNode = Extract<ScreenNode, { type: 'tree' }>
export type NodeType = ScreenNode['type']

// The node union and the one list of node types say the same: a type added to one and not the other fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const nodeTypesMatch: Same<NodeType, NodeTypeName> = true
void nodeTypesMatch

/**
 * A link to another screen by its id rather than its path, where a screen file writes a path
 * (`to`, `navigate`, `link`, `rowLink`): `{ "screen": "contrato-detalle", "params": { "referencia":
 * "{row.CodigoContrato}" } }`. The screen loader turns it into the path of the target's first
 * route, parameters and query filled in (templates stay templates), so the path is written only
 * in the target's file and what the client receives is a path as before.
 */
export const ScreenTarget = Type.Object(
  {
    screen: Type.String({ pattern: '^[a-z0-9-]+$' }),
    /** One value per `{parameter}` of the route's path. */
    params: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]+$' }), Type.Union([Type.String({ minLength: 1 }), Type.Number()]))),
    query: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.-]+$' }), Type.Union([Type.String(), Type.Number()]))),
  },
  { additionalProperties: false },
)
export type ScreenTarget = Type.Static<typeof ScreenTarget>
