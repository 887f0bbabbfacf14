/**
 * Who sees which version of a screen: the rules of a staged rollout, apart from any storage.
 * Version 0 is a shipped screen's file as it ships; a screen made in the studio has no version 0.
 */

export interface Audience {
  brands: string[]
  groups: number[]
}

export interface Release {
  /** The version everyone sees; null: nobody (a new screen not published yet, or withdrawn). */
  everyone: number | null
  /** A version shown first to some brands or user groups; everyone else keeps `everyone`. */
  staged: ({ version: number } & Audience) | null
}

/** One step of a screen's release history (each is stored as a version of the release document). */
export interface ReleaseEvent {
  action: 'publish' | 'rollback' | 'fallback'
  /** Published, restored, or (fallback) the one that failed. */
  version: number | null
  audience: Audience | null
  before: Release
  after: Release
  /** A rollback that undid a publish: that publish's step. */
  undid?: number
  reason?: string
}

/** A user as a release sees them. */
export interface Viewer {
  brand: string
  groups: readonly number[]
}

/** Who a published version is shown to: this host's brand and the user's groups. */
export const viewerOf = (brand: string, user: { Grupos?: { Id: number }[] }): Viewer => ({ brand, groups: (user.Grupos ?? []).map((g) => g.Id) })

export const initialRelease = (shipped: boolean): Release => ({ everyone: shipped ? 0 : null, staged: null })

export function inAudience(audience: Audience, viewer: Viewer): boolean {
  return audience.brands.includes(viewer.brand) || audience.groups.some((g) => viewer.groups.includes(g))
}

/** The version this user sees, or null when the screen does not exist for them. */
export function versionFor(release: Release, viewer: Viewer): number | null {
  if (release.staged && inAudience(release.staged, viewer)) return release.staged.version
  return release.everyone
}

/** Publishing to an audience stages the version for it; to nobody in particular, for everyone (and ends any staging). */
export function published(release: Release, version: number, audience: Audience | null): Release {
  if (!audience || (audience.brands.length === 0 && audience.groups.length === 0)) return { everyone: version, staged: null }
  return { everyone: release.everyone, staged: { version, ...audience } }
}

/** Every version someone sees under this release. */
export const visibleVersions = (release: Release): number[] => [release.everyone, release.staged?.version].filter((v): v is number => v !== null && v !== undefined)

/** The newest publish not undone yet, with its step number: what a rollback without a version undoes. */
export function lastPublish(events: { version: number; body: ReleaseEvent }[]): { step: number; event: ReleaseEvent } | null {
  const undone = new Set<number>()
  for (const e of events) {
    if (e.body.undid !== undefined) undone.add(e.body.undid)
    if (e.body.action === 'publish' && !undone.has(e.version)) return { step: e.version, event: e.body }
  }
  return null
}

/**
 * After `failed` broke in users' browsers (events newest first): the release with it gone. Its audience goes back to
 * the newest version everyone had before that never failed (none left: the screen's first
 * state, shipped file or not published at all); a failing staged version's brands and groups
 * go back to the newest good version staged for them, else to what everyone sees.
 */
export function fallenBack(release: Release, failed: number, events: ReleaseEvent[], first: Release): Release {
  const failures = new Set([failed, ...events.filter((e) => e.action === 'fallback' && e.version !== null).map((e) => e.version!)])
  // A failing staged version: its audience goes back to the last good version it was shown, if any (events are newest first).
  const sameAudience = (a: Audience, b: Audience) => JSON.stringify([[...a.brands].sort(), [...a.groups].sort()]) === JSON.stringify([[...b.brands].sort(), [...b.groups].sort()])
  const failedStage = release.staged?.version === failed ? release.staged : null
  const staged = failedStage
    ? (events.flatMap((e) => [e.after.staged, e.before.staged]).find((s) => s !== null && !failures.has(s.version) && sameAudience(s, failedStage)) ?? null)
    : release.staged
  if (release.everyone !== failed) return { everyone: release.everyone, staged }
  const candidates = events.flatMap((e) => [e.after.everyone, e.before.everyone])
  const good = candidates.find((v) => v !== null && !failures.has(v)) ?? first.everyone
  return { everyone: good === undefined || (good !== null && failures.has(good)) ? null : good, staged }
}
