/**
 * Where PrimeReact puts its `<style>` elements (its context's `styleContainer`).
 *
 * Every PrimeReact component, as it mounts, looks its stylesheets up (`base`, `global`,
 * `common`, its own) in the container by `data-primereact-style-id` and writes their text again
 * even when they are there already. A rewritten `<style>` makes the browser drop the sheet,
 * collect the page's rules anew and match every element again: about 15 ms each on a list
 * screen without throttling, and a list mounts a dozen components. This container answers a
 * stylesheet the document already holds with a detached copy, so the rewrite lands nowhere; the
 * first of each, and every other style element (a dialog's breakpoints), goes to `<head>` as
 * PrimeReact's default container would take it.
 *
 * PrimeReact calls two methods of its container, `querySelector` (only with its style-id
 * selector) and `appendChild`; this object is those two, typed as the element PrimeReact asks for.
 */
export function primeStyleContainer(doc: Document = document): HTMLElement {
  const detached = new WeakSet<Node>()
  const container: Pick<HTMLElement, 'querySelector' | 'appendChild'> = {
    querySelector(selector: string) {
      if (!doc.head.querySelector(selector)) return null
      const copy = doc.createElement('style')
      detached.add(copy)
      return copy
    },
    appendChild<T extends Node>(node: T): T {
      return detached.has(node) ? node : doc.head.appendChild(node)
    },
  }
  return container as HTMLElement
}
