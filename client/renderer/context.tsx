import { createContext, useContext, type ReactNode } from 'react'
import type { TemplateContext } from './template'

export interface RenderContextValue extends TemplateContext {
  screenId: string
}

const Ctx = createContext<RenderContextValue>({ screenId: '' })

/** The template context of the nodes below: route params, query, user, and the data of enclosing details. */
export function RenderContext({ value, children }: { value: Partial<RenderContextValue>; children: ReactNode }) {
  const parent = useContext(Ctx)
  return <Ctx.Provider value={{ ...parent, ...value }}>{children}</Ctx.Provider>
}

export function useRenderContext(): RenderContextValue {
  return useContext(Ctx)
}
