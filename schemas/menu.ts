import Type from 'typebox'
import { LocalizedText } from './i18n'

/** Commands a menu entry can run instead of navigating. */
export const MenuCommand = Type.Union([Type.Literal('contract-code-dialog')])
export type MenuCommand = Type.Static<typeof MenuCommand>

/**
 * One entry of the side menu as stored: a section, a group or a leaf. The rules that decide
 * who sees it (permission, brands, dev-only, hidden) live here as data, never as code branches.
 */
export const MenuEntry = Type.Cyclic(
  {
    MenuEntry: Type.Object(
      {
        key: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,59}$' }),
        label: LocalizedText,
        icon: Type.Optional(Type.String({ pattern: '^pi pi-[a-z0-9-]+$' })),
        /** A route path of the manifest. */
        to: Type.Optional(Type.String({ pattern: '^/[^\\s]*$', maxLength: 200 })),
        /** An external https address. */
        href: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 500 })),
        /** Replaces `to` in production; `{COMPARADOR_URL}` is filled from the configuration. */
        productionHref: Type.Optional(Type.String({ pattern: '^(https://|\\{COMPARADOR_URL\\})[^\\s]*$', maxLength: 500 })),
        command: Type.Optional(MenuCommand),
        permission: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]+$' })),
        devOnly: Type.Optional(Type.Boolean()),
        hidden: Type.Optional(Type.Boolean()),
        /** Brand keys that show the entry; absent means every brand. */
        brands: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9-]+$' }))),
        badge: Type.Optional(Type.String({ maxLength: 12 })),
        items: Type.Optional(Type.Array(Type.Ref('MenuEntry'))),
      },
      { additionalProperties: false },
    ),
  },
  'MenuEntry',
)
export type MenuEntry = Type.Static<typeof MenuEntry>

export const MenuDefinition = Type.Object(
  { sections: Type.Array(MenuEntry) },
  { additionalProperties: false },
)
export type MenuDefinition = Type.Static<typeof MenuDefinition>

const MenuKey = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,59}$' })
/** Place among the siblings, smallest first; two siblings never share one (the order would be a guess). */
const MenuOrder = Type.Integer({ minimum: 0, maximum: 100_000 })
const BrandKeys = Type.Array(Type.String({ pattern: '^[a-z0-9-]+$' }))

/**
 * Where a screen sits in the shipped side menu (`menu` of schemas/screen.ts). The entry leads to
 * the screen's route; its permission is the route's, unless a section or group above already
 * asks for it; its label is the screen's title unless given. The key is what stored menu
 * versions name: it never changes once shipped.
 */
export const MenuPlacement = Type.Object(
  {
    /** Key of the section or group (server/manifest/menu-sections.json) the entry goes in. */
    section: MenuKey,
    key: MenuKey,
    order: MenuOrder,
    label: Type.Optional(LocalizedText),
    icon: Type.Optional(Type.String({ pattern: '^pi pi-[a-z0-9-]+$' })),
    /** Replaces the route in production; `{COMPARADOR_URL}` is filled from the configuration. */
    productionHref: Type.Optional(Type.String({ pattern: '^(https://|\\{COMPARADOR_URL\\})[^\\s]*$', maxLength: 500 })),
    brands: Type.Optional(BrandKeys),
    devOnly: Type.Optional(Type.Boolean()),
    badge: Type.Optional(Type.String({ maxLength: 12 })),
  },
  { additionalProperties: false },
)
export type MenuPlacement = Type.Static<typeof MenuPlacement>

/**
 * The side menu's entries that are no screen's (server/manifest/menu-sections.json): sections,
 * groups (an entry with `items`, filled by screens), and leaves that open no route (a command,
 * an external link). Screens add their entries into these by key.
 */
export const MenuFrameEntry = Type.Cyclic(
  {
    MenuFrameEntry: Type.Object(
      {
        key: MenuKey,
        label: LocalizedText,
        order: MenuOrder,
        icon: Type.Optional(Type.String({ pattern: '^pi pi-[a-z0-9-]+$' })),
        href: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 500 })),
        command: Type.Optional(MenuCommand),
        permission: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]+$' })),
        devOnly: Type.Optional(Type.Boolean()),
        brands: Type.Optional(BrandKeys),
        badge: Type.Optional(Type.String({ maxLength: 12 })),
        items: Type.Optional(Type.Array(Type.Ref('MenuFrameEntry'))),
      },
      { additionalProperties: false },
    ),
  },
  'MenuFrameEntry',
)
export type MenuFrameEntry = Type.Static<typeof MenuFrameEntry>

/** Every section is a container, with or without entries of its own. */
export const MenuFrame = Type.Object({ sections: Type.Array(MenuFrameEntry) }, { additionalProperties: false })
export type MenuFrame = Type.Static<typeof MenuFrame>

/** An entry as a signed-in user receives it: already filtered, with where it leads. */
export interface ResolvedMenuEntry {
  key: string
  label: LocalizedText
  icon?: string
  to?: string
  href?: string
  command?: MenuCommand
  badge?: string
  items?: ResolvedMenuEntry[]
}

/** Fields of an entry an admin may change (everything but its key and children). */
const EntryFields = {
  label: Type.Optional(LocalizedText),
  icon: Type.Optional(Type.Union([Type.String({ pattern: '^pi pi-[a-z0-9-]+$' }), Type.Null()])),
  to: Type.Optional(Type.Union([Type.String({ pattern: '^/[^\\s]*$', maxLength: 200 }), Type.Null()])),
  href: Type.Optional(Type.Union([Type.String({ pattern: '^https://[^\\s]+$', maxLength: 500 }), Type.Null()])),
  productionHref: Type.Optional(Type.Union([Type.String({ pattern: '^(https://|\\{COMPARADOR_URL\\})[^\\s]*$', maxLength: 500 }), Type.Null()])),
  command: Type.Optional(Type.Union([MenuCommand, Type.Null()])),
  permission: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Z0-9_]+$' }), Type.Null()])),
  devOnly: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  hidden: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  brands: Type.Optional(Type.Union([Type.Array(Type.String({ pattern: '^[a-z0-9-]+$' })), Type.Null()])),
  badge: Type.Optional(Type.Union([Type.String({ maxLength: 12 }), Type.Null()])),
}

/**
 * What an admin changed on top of the shipped menu: per-entry field overrides (null removes a
 * field), moves to another parent, child order per parent, entries added and shipped entries
 * removed. Stored instead of a whole menu so that a release changing the defaults and the
 * admin's edits both survive.
 */
export const MenuOverlay = Type.Object(
  {
    entries: Type.Record(Type.String(), Type.Object(EntryFields, { additionalProperties: false })),
    /** Entry key → parent key ('' for the top level). */
    moved: Type.Record(Type.String(), Type.String()),
    /** Parent key ('' for the top level) → child keys in order. */
    order: Type.Record(Type.String(), Type.Array(Type.String())),
    /** Entries created by admins, with their parent ('' for a new section). */
    added: Type.Array(Type.Object({ parent: Type.String(), entry: MenuEntry }, { additionalProperties: false })),
    removed: Type.Array(Type.String()),
  },
  { additionalProperties: false },
)
export type MenuOverlay = Type.Static<typeof MenuOverlay>

export const EMPTY_MENU_OVERLAY: MenuOverlay = { entries: {}, moved: {}, order: {}, added: [], removed: [] }
