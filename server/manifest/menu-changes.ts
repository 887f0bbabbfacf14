import type { MenuDefinition } from '../../schemas/menu'
import { flatten } from './menu-overlay'

export interface MenuChange {
  key: string
  type: 'added' | 'removed' | 'renamed' | 'translated' | 'moved' | 'reordered' | 'hidden' | 'shown' | 'permission' | 'devOnly' | 'icon' | 'link' | 'brands' | 'badge'
  text: string
}

/** What changed between two menus, in Spanish sentences an admin reads in the history. */
export function describeMenuChanges(before: MenuDefinition, after: MenuDefinition): MenuChange[] {
  const a = flatten(before)
  const b = flatten(after)
  const label = (flat: ReturnType<typeof flatten>, key: string) => (key === '' ? 'el nivel superior' : `«${flat.entries.get(key)?.entry.label.es ?? key}»`)
  const out: MenuChange[] = []
  for (const [key, now] of b.entries) {
    const was = a.entries.get(key)
    const name = `«${now.entry.label.es}»`
    if (!was) {
      out.push({ key, type: 'added', text: `Añadida la entrada ${name} en ${label(b, now.parent)}.` })
      continue
    }
    const w = was.entry
    const n = now.entry
    if (w.label.es !== n.label.es) out.push({ key, type: 'renamed', text: `«${w.label.es}» se llama ahora ${name}.` })
    if ((w.label.en ?? '') !== (n.label.en ?? '')) out.push({ key, type: 'translated', text: `Texto en inglés de ${name}: «${w.label.en ?? '—'}» → «${n.label.en ?? '—'}».` })
    if (was.parent !== now.parent) out.push({ key, type: 'moved', text: `${name} pasa de ${label(a, was.parent)} a ${label(b, now.parent)}.` })
    if (!!w.hidden !== !!n.hidden) out.push({ key, type: n.hidden ? 'hidden' : 'shown', text: n.hidden ? `${name} queda oculta.` : `${name} vuelve a verse.` })
    if ((w.permission ?? '') !== (n.permission ?? '')) {
      out.push({ key, type: 'permission', text: n.permission ? `${name} requiere ahora el permiso ${n.permission}.` : `${name} ya no requiere ningún permiso.` })
    }
    if (!!w.devOnly !== !!n.devOnly) out.push({ key, type: 'devOnly', text: n.devOnly ? `${name} solo se ve en desarrollo.` : `${name} se ve también en producción.` })
    if ((w.icon ?? '') !== (n.icon ?? '')) out.push({ key, type: 'icon', text: `Icono de ${name}: ${w.icon ?? 'ninguno'} → ${n.icon ?? 'ninguno'}.` })
    if ((w.to ?? w.href ?? '') !== (n.to ?? n.href ?? '') || (w.productionHref ?? '') !== (n.productionHref ?? '')) {
      out.push({ key, type: 'link', text: `${name} lleva ahora a ${n.to ?? n.href ?? n.command ?? '—'}${n.productionHref ? ` (en producción, ${n.productionHref})` : ''}.` })
    }
    if (JSON.stringify(w.brands ?? null) !== JSON.stringify(n.brands ?? null)) {
      out.push({ key, type: 'brands', text: n.brands ? `${name} solo se ve en las marcas: ${n.brands.join(', ')}.` : `${name} se ve en todas las marcas.` })
    }
    if ((w.badge ?? '') !== (n.badge ?? '')) out.push({ key, type: 'badge', text: n.badge ? `${name} lleva la etiqueta ${n.badge}.` : `${name} ya no lleva etiqueta.` })
  }
  for (const [key, was] of a.entries) {
    if (!b.entries.has(key)) out.push({ key, type: 'removed', text: `Eliminada la entrada «${was.entry.label.es}».` })
  }
  for (const [parent, keys] of b.order) {
    const before = (a.order.get(parent) ?? []).filter((k) => keys.includes(k))
    const after = keys.filter((k) => before.includes(k))
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      out.push({ key: parent, type: 'reordered', text: `Nuevo orden en ${label(b, parent)}: ${keys.map((k) => b.entries.get(k)?.entry.label.es ?? k).join(', ')}.` })
    }
  }
  return out
}
