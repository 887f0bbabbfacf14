import ExcelJS from 'exceljs'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCups, makeDni } from '../../schemas/business/identifiers'
import type { ImportDefinitionView, ImportJobView } from '../../schemas/import'
import { parseCsv, readTable } from '../../server/imports/table-file'
import { ADMIN, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 17, bulk import: template, CSV and XLSX parsing, mapping, the dry run's per-row Spanish
 * errors, the commit through the catalogued call (drafts), no duplicates on a second run, and
 * undo of drafts left as imported and of sub-state changes.
 */

let api: RunningReferenceApi
let bff: TestBff
let admin = ''

const call = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
  const r = request(bff.app.server)[method](path).set('X-CSRF', '1').set('Cookie', admin)
  return body === undefined ? r : r.send(body as object)
}

async function upload(def: string, name: string, data: Buffer): Promise<ImportJobView> {
  const res = await request(bff.app.server).post(`/bff/imports/${def}/upload?name=${encodeURIComponent(name)}`).set('X-CSRF', '1').set('Cookie', admin).set('Content-Type', 'application/octet-stream').send(data)
  expect(res.status, res.text).toBe(201)
  return res.body as ImportJobView
}

async function settled(id: string): Promise<ImportJobView> {
  for (let i = 0; i < 200; i++) {
    const job = (await call('get', `/bff/imports/jobs/${id}`).expect(200)).body as ImportJobView
    if (job.state === 'done' || job.state === 'undone') return job
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('import did not finish')
}

let definition: ImportDefinitionView
let serial = 7000
let agentId = ''
const freshCups = () => makeCups('0021', String(serial++).padStart(12, '0'))

/** A CSV of sign-ups: the template's example row with a fresh CUPS per row, and changes per row. */
function signUps(changes: Record<string, string>[], sep = ';'): Buffer {
  const names = definition.columns.map((c) => c.name)
  const lines = [names.join(sep)]
  for (const change of changes) {
    const row = definition.columns.map((c) => change[c.name] ?? (c.name === 'PuntoSuministro.Cups' ? freshCups() : c.name === 'AgenteId' ? agentId : /^\d+\.\d+$/.test(c.example) ? c.example.replace('.', ',') : c.example))
    lines.push(row.map((v) => (v.includes(sep) || v.includes('"') ? `"${v.replace(/"/g, '""')}"` : v)).join(sep))
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8')
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(200)
  admin = sessionCookie(res.headers['set-cookie'])
  definition = (await call('get', '/bff/imports/contratos-altas').expect(200)).body as ImportDefinitionView
  agentId = String((await call('get', '/api/agentes?pageIndex=0&pageSize=1&sortColumn=Codigo&filterColumns[0]=Activo&filterQueries[0]=true').expect(200)).body.Items[0].Id)
}, 60_000)
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('reading files', () => {
  it('reads semicolon and comma CSV, a UTF-8 BOM, quoted fields with separators, quotes and line breaks', async () => {
    const semi = await readTable(Buffer.from('\ufeffA;B;C\r\n1;"x;y";"dice ""hola"""\r\n2;"dos\nlíneas";\r\n', 'utf8'), 'a.csv')
    expect(semi.headers).toEqual(['A', 'B', 'C'])
    expect(semi.rows.map((r) => r.cells)).toEqual([
      ['1', 'x;y', 'dice "hola"'],
      ['2', 'dos\nlíneas', ''],
    ])
    expect(semi.rows.map((r) => r.line)).toEqual([2, 3])
    const comma = parseCsv('A,B\n"1,5",Ñandú\n')
    expect(comma[1]!.cells).toEqual(['1,5', 'Ñandú'])
    // Windows-1252 (a spreadsheet's «CSV» on Windows) is read too.
    const latin = await readTable(Buffer.from([0x41, 0x3b, 0x42, 0x0a, 0x43, 0xe1, 0x3b, 0x31, 0x0a]), 'b.csv')
    expect(latin.rows[0]!.cells).toEqual(['Cá', '1'])
  })

  it('reads the first sheet of an XLSX and refuses what is not a table, in Spanish', async () => {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Hoja')
    sheet.addRow(['Nombre', 'Potencia'])
    sheet.addRow(['Ana', 4.6])
    sheet.addRow([])
    sheet.addRow(['Luis', 3])
    const table = await readTable(Buffer.from(await book.xlsx.writeBuffer()), 'a.xlsx')
    expect(table.headers).toEqual(['Nombre', 'Potencia'])
    expect(table.rows.map((r) => [r.line, ...r.cells])).toEqual([
      [2, 'Ana', '4.6'],
      [4, 'Luis', '3'],
    ])
    await expect(readTable(Buffer.from('A;B\n'), 'x.csv')).rejects.toThrow('no tiene filas de datos')
    await expect(readTable(Buffer.from('no es un zip'), 'x.xlsx')).rejects.toThrow('no es un Excel')
    await expect(readTable(Buffer.from('A;B\n1;"2\n'), 'x.csv')).rejects.toThrow('comillas')
  })
})

describe('contract sign-ups', () => {
  it('offers the sign-up form fields as columns, labelled in both languages, and a template in XLSX and CSV', async () => {
    const names = definition.columns.map((c) => c.name)
    expect(names).toContain('Cliente.Nif')
    expect(names).toContain('PuntoSuministro.Cups')
    expect(names).toContain('Potencias.P6')
    expect(definition.columns.find((c) => c.name === 'Iban')).toMatchObject({ label: { es: 'IBAN de domiciliación', en: 'Direct-debit IBAN' }, required: true })
    const csv = await call('get', '/bff/imports/contratos-altas/template?format=csv').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => cb(null, Buffer.concat(chunks)))
    })
    expect(csv.status).toBe(200)
    const text = (csv.body as Buffer).toString('utf8')
    expect(text.startsWith('\ufeffCliente.Tipo;Cliente.Nif;')).toBe(true)
    expect(text).toContain('12345678Z')
    const xlsx = await call('get', '/bff/imports/contratos-altas/template?format=xlsx').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => cb(null, Buffer.concat(chunks)))
    })
    const table = await readTable(xlsx.body as Buffer, 'plantilla.xlsx')
    expect(table.headers).toEqual(names)
    expect(table.rows).toHaveLength(1)
  })

  it('maps columns by name or label, and the dry run names each bad row, column and reason in Spanish, sending nothing', async () => {
    const before = (await call('get', '/api/contract?pageIndex=0&pageSize=1').expect(200)).body.TotalCount as number
    const data = signUps([{}, { 'Cliente.Nif': '12345678A' }, { Iban: 'ES9121000418450200051333' }, { 'PuntoSuministro.Cups': 'ES0021000000000000XX' }, { 'Potencias.P1': '20' }, { 'Potencias.P2': '200000' }])
    const job = await upload('contratos-altas', 'altas.csv', data)
    expect(job.rowCount).toBe(6)
    expect(job.mapping['Cliente.Nif']).toBe('Cliente.Nif')
    const checked = (await call('post', `/bff/imports/jobs/${job.id}/check`, { mapping: job.mapping }).expect(200)).body as ImportJobView
    expect(checked.check!.problems.filter((p) => p.row === 2)).toEqual([])
    expect(checked.check).toMatchObject({ valid: 1, invalidRows: 5 })
    const byRow = new Map(checked.check!.problems.map((p) => [p.row, p]))
    expect(byRow.get(3)).toMatchObject({ column: 'Cliente.Nif', message: 'La letra del DNI no es correcta (debería ser Z).' })
    expect(byRow.get(4)).toMatchObject({ column: 'Iban', message: 'Los dígitos de control del IBAN no son correctos.' })
    expect(byRow.get(5)!.column).toBe('PuntoSuministro.Cups')
    expect(byRow.get(5)!.message).toMatch(/letras de control del CUPS/)
    expect(byRow.get(6)).toMatchObject({ column: 'Potencias.P1', message: 'Con la tarifa 2.0TD no puede superar 15 kW (tiene 20).' })
    expect(byRow.get(7)).toMatchObject({ column: 'Potencias.P2', message: 'El valor máximo es 100.000.' })
    const after = (await call('get', '/api/contract?pageIndex=0&pageSize=1').expect(200)).body.TotalCount as number
    expect(after).toBe(before)

    // A label as header is mapped as well.
    const byLabel = await upload('contratos-altas', 'b.csv', Buffer.from('NIF / NIE / CIF;IBAN de domiciliación;Otra\n12345678Z;x;y\n'))
    expect(byLabel.mapping['Cliente.Nif']).toBe('NIF / NIE / CIF')
    expect(byLabel.mapping.Iban).toBe('IBAN de domiciliación')
    expect(byLabel.mapping['Cliente.Email']).toBeNull()
  })

  it('commits valid rows as drafts, creates nothing twice, and undo removes only the drafts unchanged since', async () => {
    // Holders of their own: an edit of a holder shows in every contract of theirs.
    const data = signUps([{ 'Cliente.Nif': makeDni(31000001) }, { 'Cliente.Nif': makeDni(31000002) }, { 'Cliente.Nif': makeDni(31000003) }, { 'Cliente.Nif': '1' }])
    const job = await upload('contratos-altas', 'altas.csv', data)
    await call('post', `/bff/imports/jobs/${job.id}/check`, { mapping: job.mapping }).expect(200)
    await call('post', `/bff/imports/jobs/${job.id}/commit`).expect(202)
    const done = await settled(job.id)
    expect(done.outcomes.filter((o) => o.outcome === "failed")).toEqual([])
    expect(done.counts).toMatchObject({ created: 3, invalid: 1, failed: 0 })
    const codes = done.outcomes.filter((o) => o.outcome === 'created').map((o) => o.record!)
    for (const code of codes) {
      const detail = (await call('get', `/api/contract/id?codigo=${code}`).expect(200)).body
      expect(detail.Estado).toBe('borrador')
    }

    // The same file again: the dry run sees them, the commit sends nothing.
    const again = await upload('contratos-altas', 'altas.csv', data)
    const rechecked = (await call('post', `/bff/imports/jobs/${again.id}/check`, { mapping: again.mapping }).expect(200)).body as ImportJobView
    expect(rechecked.check).toMatchObject({ valid: 0, duplicates: 3 })
    await call('post', `/bff/imports/jobs/${again.id}/commit`).expect(202)
    const second = await settled(again.id)
    expect(second.counts).toMatchObject({ created: 0, duplicate: 3 })
    expect(second.outcomes.filter((o) => o.outcome === 'duplicate').map((o) => o.record)).toEqual(codes)

    // Another row with a CUPS of a live imported draft is refused.
    const sameCups = signUps([{ 'PuntoSuministro.Cups': (await call('get', `/api/contract/id?codigo=${codes[0]}`).expect(200)).body.Cups, 'Cliente.Nif': '54362315K' }])
    const third = await upload('contratos-altas', 'c.csv', sameCups)
    const thirdCheck = (await call('post', `/bff/imports/jobs/${third.id}/check`, { mapping: third.mapping }).expect(200)).body as ImportJobView
    expect(thirdCheck.check!.problems[0]).toMatchObject({ column: 'PuntoSuministro.Cups', message: `Ya tiene un contrato en borrador de una importación (${codes[0]}).` })

    // One draft is edited and one is sent on; undo removes only the third.
    const edited = await call('get', `/api/contract/id?codigo=${codes[0]}`).expect(200)
    await call('put', `/api/contract/update?codigo=${codes[0]}`, { ...edited.body, Cliente: { ...edited.body.Cliente, Email: 'cambiado.a.mano@example.com' } }).set('If-Match', String(edited.headers.etag)).expect(200)
    const beforeSigning = await call('get', `/api/contract/id?codigo=${codes[1]}`).expect(200)
    await call('put', `/api/contract/update/situacion-firma?codigoContrato=${codes[1]}`).expect(200)
    await call('post', `/bff/imports/jobs/${job.id}/undo`).expect(202)
    const undone = await settled(job.id)
    expect(undone.undo!.undone).toBe(1)
    expect(undone.undo!.left.map((l) => l.record)).toEqual([codes[0], codes[1]])
    expect(undone.undo!.left[0]!.reason).toBe('Se ha modificado desde la importación.')
    expect(undone.undo!.left[1]!.reason).toMatch(/Ha cambiado de estado/)
    await call('get', `/api/contract/id?codigo=${codes[2]}`).expect(404)
    // The reference API's draft removal: a stale version is 412, a contract past Borrador 409 (without If-Match); nothing changes.
    const stale = await call('delete', `/api/contract/borrador?codigo=${codes[0]}`).set('If-Match', String(edited.headers.etag))
    expect(stale.status).toBe(412)
    // Sent on since it was read: the version answers first (412), as for the contract's other writes.
    const sentOn = await call('delete', `/api/contract/borrador?codigo=${codes[1]}`).set('If-Match', String(beforeSigning.headers.etag))
    expect(sentOn.status).toBe(412)
    const signed = await call('delete', `/api/contract/borrador?codigo=${codes[1]}`)
    expect(signed.status).toBe(409)
    expect(signed.text).toMatch(/solo se puede eliminar un contrato en borrador/)
    await call('get', `/api/contract/id?codigo=${codes[0]}`).expect(200)

    const result = await call('get', `/bff/imports/jobs/${job.id}/result`).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => cb(null, Buffer.concat(chunks)))
    })
    const table = await readTable(result.body as Buffer, 'r.xlsx')
    expect(table.headers).toEqual(['Fila', 'Resultado', 'Registro', 'Mensaje', 'Deshacer'])
    expect(table.rows.find((r) => r.cells[2] === codes[2])!.cells[4]).toBe('Deshecha')
    expect(table.rows.find((r) => r.cells[0] === '5')!.cells[1]).toBe('No enviada (datos no válidos)')
  }, 60_000)

  it('refuses an unsupported file and an oversized one with Spanish messages, and another user’s job is not found', async () => {
    const bad = await request(bff.app.server).post('/bff/imports/contratos-altas/upload?name=a.xlsx').set('X-CSRF', '1').set('Cookie', admin).set('Content-Type', 'application/octet-stream').send(Buffer.from('hola'))
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/no es un Excel/)
    const big = await request(bff.app.server)
      .post('/bff/imports/contratos-altas/upload?name=a.csv')
      .set('X-CSRF', '1')
      .set('Cookie', admin)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(5 * 1024 * 1024 + 10, 0x41))
    expect(big.status).toBe(413)
    expect(big.body.message).toMatch(/supera el máximo de 5 MB/)
    await call('get', '/bff/imports/jobs/00000000-0000-0000-0000-000000000000').expect(404)
    await request(bff.app.server).get('/bff/imports/contratos-altas').expect(401)
  })
})

describe('renewal sub-state changes', () => {
  it('changes sub-states and undo restores each previous one unless it changed since', async () => {
    const page = (await call('get', '/api/renovaciones?pageIndex=0&pageSize=50').expect(200)).body.Items as { CodigoContrato: string; SubestadoId: number; SubestadoCodigo: string }[]
    const subestados = (await call('get', '/api/renovaciones/subestados').expect(200)).body as { Id: number; Codigo: string }[]
    const open = page.filter((r) => r.SubestadoCodigo !== 'renovado').slice(0, 2)
    const target = subestados.find((s) => s.Codigo !== 'renovado' && !open.some((r) => r.SubestadoId === s.Id))!
    const csv = Buffer.from(`CodigoContrato,SubestadoId\n${open.map((r) => `${r.CodigoContrato},${target.Id}`).join('\n')}\nEV-0000-1,${target.Id}\n`)
    const job = await upload('renovaciones-subestados', 'subestados.csv', csv)
    const checked = (await call('post', `/bff/imports/jobs/${job.id}/check`, { mapping: job.mapping }).expect(200)).body as ImportJobView
    expect(checked.check).toMatchObject({ valid: 3, invalidRows: 0 })
    await call('post', `/bff/imports/jobs/${job.id}/commit`).expect(202)
    const done = await settled(job.id)
    expect(done.counts).toMatchObject({ created: 2, failed: 1 })
    expect(done.outcomes.find((o) => o.outcome === 'failed')!.message).toMatch(/código de contrato/)
    const now = async (code: string) => ((await call('get', `/api/renovaciones?pageIndex=0&pageSize=5&filterColumns[0]=CodigoContrato&filterQueries[0]=${code}`).expect(200)).body.Items as { CodigoContrato: string; SubestadoId: number }[]).find((r) => r.CodigoContrato === code)!.SubestadoId
    expect(await now(open[0]!.CodigoContrato)).toBe(target.Id)
    // Someone changes the second one by hand; undo restores only the first.
    const other = subestados.find((s) => s.Codigo !== 'renovado' && s.Id !== target.Id && s.Id !== open[1]!.SubestadoId)!
    await call('put', '/api/renovaciones/change-subestado', { CodigoContrato: open[1]!.CodigoContrato, SubestadoId: other.Id }).expect(200)
    await call('post', `/bff/imports/jobs/${job.id}/undo`).expect(202)
    const undone = await settled(job.id)
    expect(undone.undo).toMatchObject({ undone: 1, left: [{ record: open[1]!.CodigoContrato, reason: 'Su subestado ha cambiado desde la importación.' }] })
    expect(await now(open[0]!.CodigoContrato)).toBe(open[0]!.SubestadoId)
    expect(await now(open[1]!.CodigoContrato)).toBe(other.Id)
  }, 60_000)

  it('a row the four-eyes policy holds (a renewal set to «baja», sub-state 6) is reported pending, changes nothing, and is not asked for twice', async () => {
    const page = (await call('get', '/api/renovaciones?pageIndex=0&pageSize=50').expect(200)).body.Items as { CodigoContrato: string; SubestadoId: number; SubestadoCodigo: string }[]
    const row = page.filter((r) => r.SubestadoCodigo !== 'renovado' && r.SubestadoId !== 6).at(-1)!
    const csv = Buffer.from(`CodigoContrato,SubestadoId\n${row.CodigoContrato},6\n`)
    const run = async () => {
      const job = await upload('renovaciones-subestados', 'baja.csv', csv)
      await call('post', `/bff/imports/jobs/${job.id}/check`, { mapping: job.mapping }).expect(200)
      await call('post', `/bff/imports/jobs/${job.id}/commit`).expect(202)
      return settled(job.id)
    }
    const first = await run()
    expect(first.counts).toMatchObject({ created: 0, held: 1, failed: 0 })
    expect(first.outcomes).toMatchObject([{ outcome: 'held', message: 'Pendiente de aprobación.' }])
    const current = ((await call('get', `/api/renovaciones?pageIndex=0&pageSize=5&filterColumns[0]=CodigoContrato&filterQueries[0]=${row.CodigoContrato}`).expect(200)).body.Items as { CodigoContrato: string; SubestadoId: number }[]).find((r) => r.CodigoContrato === row.CodigoContrato)!
    expect(current.SubestadoId).toBe(row.SubestadoId)
    const second = await run()
    expect(second.counts).toMatchObject({ created: 0, held: 0, duplicate: 1 })
    expect(second.outcomes[0]!.message).toBe('Ya importada (pendiente de aprobación o en curso).')
  }, 60_000)
})
