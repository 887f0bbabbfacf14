import { createContext, useContext } from 'react'
import type { ScreenFile } from '../../../../schemas/screen'

/**
 * What a node editor may need beyond its node: the whole screen (the ids an action may reload,
 * the JSON editors' check of the screen with their value in place) and where the node sits.
 */
export interface StructureScope {
  screen: ScreenFile
  /** JSON pointer of the node being edited. */
  pointer: string
}

export const StructureContext = createContext<StructureScope | null>(null)

export function useStructure(): StructureScope {
  const scope = useContext(StructureContext)
  if (!scope) throw new Error('A node editor is drawn inside the structure editor only')
  return scope
}
