import { useQuery } from '@tanstack/react-query'
import type { Text } from '../../schemas/screen'
import { api } from '../api/client'
import { useI18n } from '../i18n/i18n'
import { useRenderContext } from './context'
import { fill } from './template'

/** A page title; placeholders like `{params.id}` are filled from the route. */
export function useScreenTitle(title: Text | undefined): string {
  const { l } = useI18n()
  const ctx = useRenderContext()
  const screen = useQuery({ queryKey: ['screen', ctx.screenId], queryFn: () => api.get<{ title: Text }>(`/bff/screens/${ctx.screenId}`), enabled: false })
  const text = l(title ?? screen.data?.title)
  return fill(text, ctx)
}
