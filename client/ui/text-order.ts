/**
 * The one order for texts the portal sorts (grid columns, options, file names): Spanish, accents
 * and case aside, digits as numbers ("Fila 2" before "Fila 10"). The collator is built on first
 * use: building one costs more than a page's worth of comparisons, and most pages never sort.
 */
let collator: Intl.Collator | undefined

export function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator('es', { numeric: true, sensitivity: 'base' })
  return collator.compare(a, b)
}
