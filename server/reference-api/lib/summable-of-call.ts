import { SHIPPED_CATALOGUE } from '../../../schemas/catalogue/index'

interface CatalogueCall {
  id: string
  list?: { summable?: string[] }
}

/**
 * The fields a paged list call totals over the whole filtered set (`Totales`), read from the
 * endpoint catalogue's `summable`, so which columns add up is declared once.
 */
export function summableOf(callId: string): readonly string[] {
  for (const file of Object.values(SHIPPED_CATALOGUE)) {
    const call = (file as { calls: CatalogueCall[] }).calls.find((c) => c.id === callId)
    if (call) return call.list?.summable ?? []
  }
  throw new Error(`La llamada «${callId}» no está en el catálogo.`)
}
