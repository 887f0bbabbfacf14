/**
 * The tariff periods P1…P6. Plain data, apart from the schemas: the client takes this list at
 * run time without loading TypeBox.
 */
export const PERIODS = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const
export type Period = (typeof PERIODS)[number]
