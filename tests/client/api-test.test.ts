import { describe, expect, it } from 'vitest'
import {
  buildRequest,
  describeCall,
  exampleValues,
  keyProblem,
  maskKey,
  paramProblem,
  pathPlaceholders,
  pickHeaders,
  prettyBody,
  statusKind,
  statusText,
  tokenizeJson,
  type CatalogEntry,
} from '../../client/widgets/api-test/request'

const contratos: CatalogEntry = {
  Id: 'contratos',
  Metodo: 'GET',
  Ruta: '/api/public/v1/contratos',
  Descripcion: 'Contratos del agente',
  Permiso: 'APICONTRATOSLECTURA',
  Parametros: [
    { Nombre: 'pageIndex', En: 'query', Tipo: 'integer', Requerido: false, Descripcion: 'Página, desde 0', Ejemplo: 0 },
    { Nombre: 'pageSize', En: 'query', Tipo: 'integer', Requerido: false, Descripcion: 'Tamaño de página', Ejemplo: 10 },
    { Nombre: 'estado', En: 'query', Tipo: 'string', Requerido: false, Descripcion: 'Estado', Ejemplo: 'activo' },
  ],
}
const contrato: CatalogEntry = {
  Id: 'contrato',
  Metodo: 'get',
  Ruta: 'api/public/v1/contratos/{codigo}',
  Descripcion: 'Un contrato',
  Permiso: 'APICONTRATOSLECTURA',
  Parametros: [{ Nombre: 'codigo', En: 'path', Tipo: 'string', Requerido: true, Descripcion: 'Código del contrato', Ejemplo: 'EV-2026-000123' }],
}
const omie: CatalogEntry = {
  Id: 'omie',
  Metodo: 'GET',
  Ruta: '/api/public/v1/precios/omie',
  Descripcion: 'Precios OMIE de un día',
  Permiso: null,
  Parametros: [{ Nombre: 'fecha', En: 'query', Tipo: 'date', Requerido: true, Descripcion: 'Día', Ejemplo: '2026-01-15' }],
}

describe('building a request from the catalogue', () => {
  it('types query values and leaves empty optional ones out', () => {
    const r = buildRequest(contratos, { pageIndex: '2', pageSize: ' 25 ', estado: '' })
    expect(r).toEqual({ ok: true, method: 'GET', path: '/api/public/v1/contratos', params: { pageIndex: 2, pageSize: 25 }, url: '/api/public/v1/contratos?pageIndex=2&pageSize=25' })
  })

  it('substitutes path parameters, encoded, and keeps them out of the query', () => {
    const r = buildRequest(contrato, { codigo: 'EV 2026/1' })
    expect(r).toEqual({ ok: true, method: 'GET', path: '/api/public/v1/contratos/EV%202026%2F1', params: {}, url: '/api/public/v1/contratos/EV%202026%2F1' })
    expect(pathPlaceholders('/a/{x}/b/:y')).toEqual(['x', 'y'])
    const colon = buildRequest({ ...contrato, Ruta: '/api/public/v1/contratos/:codigo' }, { codigo: 'EV-1' })
    expect(colon.ok && colon.path).toBe('/api/public/v1/contratos/EV-1')
  })

  it('names what is missing or malformed', () => {
    expect(buildRequest(contrato, {})).toEqual({ ok: false, errors: { codigo: '«codigo» es obligatorio.' } })
    expect(buildRequest(contratos, { pageIndex: '1.5' })).toEqual({ ok: false, errors: { pageIndex: '«pageIndex» debe ser un número entero.' } })
    expect(buildRequest(omie, { fecha: '2026-02-30' })).toEqual({ ok: false, errors: { fecha: '«fecha» debe ser una fecha AAAA-MM-DD.' } })
    expect(buildRequest(omie, { fecha: '15/01/2026' }).ok).toBe(false)
    expect(buildRequest(omie, { fecha: '2026-01-15' })).toMatchObject({ ok: true, url: '/api/public/v1/precios/omie?fecha=2026-01-15' })
  })

  it('needs a placeholder of the route even if the catalogue does not list it', () => {
    expect(buildRequest({ ...contrato, Parametros: [] }, {})).toEqual({ ok: false, errors: { codigo: '«codigo» es obligatorio.' } })
  })

  it('offers the examples as values', () => {
    expect(exampleValues(contratos)).toEqual({ pageIndex: '0', pageSize: '10', estado: 'activo' })
    expect(paramProblem(contratos.Parametros[2]!, undefined)).toBeNull()
  })
})

describe('the key', () => {
  const full = 'pk_ecbebe254aac9482.U6EUHxSsy_JrUQI23TxbATvxuuXYZKb09s8pIBtgsfk'
  it('must be the full key, not its public id', () => {
    expect(keyProblem(full)).toBeNull()
    expect(keyProblem(`  ${full} `)).toBeNull()
    expect(keyProblem('')).toBe('Pega una clave de API completa.')
    expect(keyProblem('pk_ecbebe254aac9482')).toMatch(/solo la parte pública/)
    expect(keyProblem('hola')).toMatch(/No parece una clave completa/)
  })

  it('is never shown back whole', () => {
    expect(maskKey(full)).toBe('pk_ecbe…')
    expect(maskKey(full)).not.toContain('U6EU')
  })
})

describe('showing the answer', () => {
  it('pretty-prints JSON and keeps text as it came', () => {
    expect(prettyBody('{"a":1,"b":[true,null]}')).toEqual({ text: '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}', json: true })
    expect(prettyBody('La clave no tiene el permiso APICONTRATOSLECTURA.')).toEqual({ text: 'La clave no tiene el permiso APICONTRATOSLECTURA.', json: false })
    expect(prettyBody('')).toEqual({ text: '', json: false })
  })

  it('colours JSON without changing its text', () => {
    const pretty = prettyBody('{"Nombre":"Comparador \\"web\\"","Total":-12.5e2,"Activo":false,"Agente":null,"Permisos":["APISIPS"]}').text
    const tokens = tokenizeJson(pretty)
    expect(tokens.map((t) => t.text).join('')).toBe(pretty)
    const kinds = (k: string) => tokens.filter((t) => t.kind === k).map((t) => t.text)
    expect(kinds('key')).toEqual(['"Nombre"', '"Total"', '"Activo"', '"Agente"', '"Permisos"'])
    expect(kinds('string')).toEqual(['"Comparador \\"web\\""', '"APISIPS"'])
    expect(kinds('number')).toEqual(['-1250'])
    expect(kinds('boolean')).toEqual(['false'])
    expect(kinds('null')).toEqual(['null'])
  })

  it('keeps the headers worth seeing', () => {
    const headers = new Headers({ 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-7', 'Set-Cookie': 'x=1', Vary: 'Origin' })
    expect(pickHeaders(headers)).toEqual([
      ['content-type', 'application/json; charset=utf-8'],
      ['x-request-id', 'req-7'],
    ])
  })

  it('names statuses in Spanish and classes them', () => {
    expect(statusText(200)).toBe('OK')
    expect(statusText(403)).toBe('Prohibido')
    expect(statusText(418)).toBe('Error de la petición')
    expect(statusKind(200)).toBe('ok')
    expect(statusKind(401)).toBe('client-error')
    expect(statusKind(503)).toBe('server-error')
    expect(statusKind(0)).toBe('network')
    expect(describeCall('GET', '/api/public/v1/me', 200, 41.6)).toBe('GET /api/public/v1/me → 200 OK en 42 ms')
  })
})
