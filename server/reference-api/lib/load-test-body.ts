/** Size of the answer of `GET /api/utility/prueba-carga`, in bytes. */
export const LOAD_TEST_BODY_BYTES = 2048

/**
 * The fixed JSON answer of `GET /api/utility/prueba-carga`: a small catalogue padded to
 * exactly `size` bytes, built once, so a load test through a proxy measures the proxy and
 * not the API's queries.
 */
export function loadTestBody(size: number = LOAD_TEST_BODY_BYTES): Buffer {
  const items: { Id: number; Codigo: string; Nombre: string }[] = []
  const render = (padding: string) => JSON.stringify({ Tamano: size, Items: items, Relleno: padding })
  for (let id = 1; ; id++) {
    items.push({ Id: id, Codigo: `PC-${String(id).padStart(4, '0')}`, Nombre: `Elemento de prueba de carga ${id}` })
    if (Buffer.byteLength(render('')) > size) {
      items.pop()
      break
    }
  }
  const body = Buffer.from(render('x'.repeat(size - Buffer.byteLength(render('')))))
  if (body.length !== size) throw new Error(`loadTestBody: ${body.length} bytes instead of ${size}`)
  return body
}
