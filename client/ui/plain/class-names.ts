/** Class names joined, falsy ones left out (PrimeReact's `classNames`, without loading PrimeReact). */
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
