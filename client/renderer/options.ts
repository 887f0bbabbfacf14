import { useQuery } from '@tanstack/react-query'
import type { Option, OptionSource } from '../../schemas/screen'
import { api } from '../api/client'
import type { Language } from '../../schemas/i18n'
import { getLanguage, localized, useI18n } from '../i18n/i18n'
import { fill, getPath, lookup, resolveParams, type TemplateContext } from './template'
import { compareText } from '../ui/text-order'

export interface ResolvedOption {
  value: string | number | boolean
  label: string
  severity?: string
}

/** Items of an option source: optionally dropping those without a label, sorted in Spanish order; labels in `lang`. */
export function toOptions(items: unknown, source: OptionSource, lang: Language = getLanguage()): ResolvedOption[] {
  const list = Array.isArray(items) ? items : []
  let out = list
    .filter((item) => !source.requireLabel || (typeof getPath(item, source.labelField) === 'string' && String(getPath(item, source.labelField)).trim() !== ''))
    .map((item) => ({
      value: getPath(item, source.valueField) as string | number,
      label: source.labelTemplate ? fill(localized(source.labelTemplate, lang), { row: item as Record<string, unknown> }) : String(getPath(item, source.labelField) ?? ''),
    }))
  if (source.sortByLabel) out = [...out].sort((a, b) => compareText(a.label, b.label))
  return out
}

/** Static options, or options fetched from an endpoint (a failed fetch yields an empty list). */
export function useOptions(options: Option[] | OptionSource | undefined, ctx: TemplateContext = {}): { options: ResolvedOption[]; loading: boolean } {
  const { lang } = useI18n()
  const source = options && !Array.isArray(options) ? options : undefined
  const endpoint = source?.endpoint ? `/${fill(source.endpoint, ctx, true)}` : ''
  const params = source ? resolveParams(source.params, ctx) : {}
  const query = useQuery({
    queryKey: ['options', endpoint, params],
    queryFn: () => api.get<unknown>(endpoint, { params }),
    enabled: !!endpoint,
    staleTime: 5 * 60_000,
  })
  if (!options) return { options: [], loading: false }
  if (Array.isArray(options)) return { options: options.map((o) => ({ value: o.value, label: localized(o.label, lang), severity: o.severity })), loading: false }
  if (source?.from) return { options: toOptions(lookup(ctx, source.from), source, lang), loading: false }
  const items = source?.path ? getPath(query.data, source.path) : query.data
  return { options: query.isError ? [] : toOptions(items, source!, lang), loading: query.isPending }
}
