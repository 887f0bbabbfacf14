import { describe, expect, it } from 'vitest'
import { fallenBack, type Release, type ReleaseEvent } from '../../server/screens/screen-release'

const grupo = { brands: ['grupo'], groups: [] }
const publish = (before: Release, after: Release, version: number): ReleaseEvent => ({ action: 'publish', version, audience: after.staged ? { brands: after.staged.brands, groups: after.staged.groups } : null, before, after })

describe('the fallback after a version breaks in browsers', () => {
  it('a failing version staged to a brand: that brand goes back to the good version it had, not to nothing', () => {
    const none: Release = { everyone: null, staged: null }
    const v2: Release = { everyone: null, staged: { version: 2, ...grupo } }
    const v3: Release = { everyone: null, staged: { version: 3, ...grupo } }
    // Newest first, as the store gives them.
    const events = [publish(v2, v3, 3), publish(none, v2, 2)]
    expect(fallenBack(v3, 3, events, none)).toEqual(v2)
  })

  it('a failing version for everyone: back to the newest good one everyone had; the staged audience keeps its own', () => {
    const v1: Release = { everyone: 1, staged: null }
    const v2: Release = { everyone: 2, staged: { version: 4, brands: [], groups: [7] } }
    const events = [publish(v1, v2, 2), publish({ everyone: null, staged: null }, v1, 1)]
    expect(fallenBack(v2, 2, events, { everyone: null, staged: null })).toEqual({ everyone: 1, staged: { version: 4, brands: [], groups: [7] } })
  })

  it('a staged version that failed with no good one before it: its audience sees what everyone sees', () => {
    const shipped: Release = { everyone: 0, staged: null }
    const v1: Release = { everyone: 0, staged: { version: 1, ...grupo } }
    expect(fallenBack(v1, 1, [publish(shipped, v1, 1)], shipped)).toEqual(shipped)
  })
})
