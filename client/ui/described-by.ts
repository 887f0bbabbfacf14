// Apart from FieldShell.tsx: the sign-in page draws fields but wires no errors or hints.

/** The aria-describedby of a field's input: its error and its hint when shown, then the ids of its notes. */
export function describedBy(id: string, hint: unknown, error: unknown, ...notes: (string | null | undefined | false)[]): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-help` : null, ...notes].filter(Boolean).join(' ') || undefined
}
