// Types of scripts/bench/profile-summary.mjs for its tests.

export function ownerOfScript(url: string): string
export function profileSummary(file: string, opts?: { top?: number; lastSeconds?: number; stopSeconds?: number }): string
export function inclusiveShare(file: string, pattern: RegExp, opts?: { lastSeconds?: number; stopSeconds?: number }): { samples: number; share: number }
