import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SCREEN_SCHEMA_VERSION, type FormNode, type ScreenFile, type TableNode } from '../../schemas/screen'
import { nodesOf } from '../../schemas/screen-walk'
import { AuditWriter, type AuditOrigin } from '../../server/audit/audit-writer'
import { SqliteAuditLog } from '../../server/audit/sqlite-audit-log'
import { SqliteMenuStore } from '../../server/manifest/sqlite-menu-store'
import { checkScreen, fieldsAndFiltersSayInput, loadScreens, SCREEN_MIGRATIONS, upgradeScreen } from '../../server/screens/screen-loader'
import { ScreenStore } from '../../server/screens/screen-store'
import { ScreenService } from '../../server/screens/screen-service'

/** A screen file written under version 1 and kept as it was: fields and filters said their kind with `type`. */
const V1_DIR = path.resolve('tests/server/fixtures/screens-v1')
const V1_FILE = path.join(V1_DIR, 'clientes-v1.json')

const forms = (screen: ScreenFile) => nodesOf(screen.root).filter((n): n is FormNode => n.type === 'form')
const tables = (screen: ScreenFile) => nodesOf(screen.root).filter((n): n is TableNode => n.type === 'table')

describe('the v1 → v2 migration (fields and filters say `input`)', () => {
  it('renames the kind of every field and filter, wherever the form or table sits, and nothing else', () => {
    const v1 = {
      schemaVersion: 1,
      id: 'x',
      title: 'X',
      root: {
        type: 'page',
        children: [
          {
            type: 'table',
            id: 't',
            columns: [{ field: 'A', header: 'A', filter: { type: 'select', column: 'a' } }, { field: 'B', header: 'B' }],
            actions: [{ id: 'nuevo', kind: 'form', form: { type: 'form', id: 'f', fields: [{ name: 'N', label: 'N', type: 'text', required: true }], submit: { method: 'POST', endpoint: 'api/x', body: { type: 'text' } } } }],
          },
          { type: 'widget', name: 'w', props: { filter: { type: 'text' }, fields: [{ type: 'text' }] } },
        ],
      },
    }
    const before = structuredClone(v1)
    expect(fieldsAndFiltersSayInput(v1)).toEqual({
      schemaVersion: 1,
      id: 'x',
      title: 'X',
      root: {
        type: 'page',
        children: [
          {
            type: 'table',
            id: 't',
            columns: [{ field: 'A', header: 'A', filter: { input: 'select', column: 'a' } }, { field: 'B', header: 'B' }],
            actions: [{ id: 'nuevo', kind: 'form', form: { type: 'form', id: 'f', fields: [{ name: 'N', label: 'N', input: 'text', required: true }], submit: { method: 'POST', endpoint: 'api/x', body: { type: 'text' } } } }],
          },
          { type: 'widget', name: 'w', props: { filter: { type: 'text' }, fields: [{ type: 'text' }] } },
        ],
      },
    })
    // The file read is left as it was.
    expect(v1).toEqual(before)
  })

  it('keeps the key where it was among the field’s keys, and leaves a field that already says `input` alone', () => {
    const out = fieldsAndFiltersSayInput({ root: { type: 'form', fields: [{ name: 'N', type: 'email', label: 'N' }, { name: 'M', label: 'M', input: 'text' }] } })
    const fields = (out.root as { fields: Record<string, unknown>[] }).fields
    expect(Object.keys(fields[0]!)).toEqual(['name', 'input', 'label'])
    expect(fields[1]).toEqual({ name: 'M', label: 'M', input: 'text' })
  })

  it('is the loader’s upgrade from version 1', () => {
    expect(SCREEN_SCHEMA_VERSION).toBe(2)
    expect(SCREEN_MIGRATIONS[1]).toBe(fieldsAndFiltersSayInput)
    const upgraded = upgradeScreen({ schemaVersion: 1, id: 'x', root: { type: 'form', fields: [{ name: 'N', type: 'text' }] } }, 'x.json')
    expect(upgraded).toEqual({ schemaVersion: 2, id: 'x', root: { type: 'form', fields: [{ name: 'N', input: 'text' }] } })
  })
})

describe('a screen stored under version 1', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'screen-v1-'))
  const store = new SqliteMenuStore(path.join(dataDir, 'menu.db'))
  const audit = new SqliteAuditLog(path.join(dataDir, 'audit.db'), { retentionMs: 86_400_000 })
  const admin: AuditOrigin = { author: { id: 1, name: 'Admin', email: 'admin@example.com' }, brand: 'verde', requestId: 'prueba', call: 'PUT bff/admin/screens/:id', status: 200 }
  afterAll(async () => {
    await store.close()
    await audit.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('is still written as version 1', () => {
    const raw = JSON.parse(fs.readFileSync(V1_FILE, 'utf8'))
    expect(raw.schemaVersion).toBe(1)
    expect(JSON.stringify(raw)).toContain('"type":"email"')
  })

  it('is read at the current version: every field and filter says `input`, nodes keep `type`, data stays', () => {
    const screen = loadScreens(V1_DIR).get('clientes-v1')!
    expect(screen.schemaVersion).toBe(SCREEN_SCHEMA_VERSION)
    expect(forms(screen).map((f) => f.fields.map((x) => [x.name, x.input]))).toEqual([
      [['Email', 'email']],
      [
        ['Nif', 'text'],
        ['Tarifa', 'select'],
        ['Acepta', 'checkbox'],
      ],
    ])
    for (const f of forms(screen)) for (const field of f.fields) expect(field).not.toHaveProperty('type')
    expect(tables(screen)[0]!.columns.map((c) => c.filter?.input)).toEqual(['text', 'multiselect', 'dateRange'])
    expect(nodesOf(screen.root).map((n) => n.type)).toEqual(['page', 'table', 'form', 'tabs', 'form', 'widget'])
    expect(forms(screen)[0]!.submit.body).toEqual({ type: 'text' })
  })

  it('an edit made in the studio before the schema moved on is served at the current version', async () => {
    const shipped = loadScreens(V1_DIR)
    const service = new ScreenService({
      shipped,
      store: new ScreenStore(store, new AuditWriter(audit, { logger: { error: () => undefined }, failed: () => undefined })),
      shippedView: { routes: [], menu: { sections: [] } },
      // This folder's screens take no place in the menu: a frame with no sections.
      frame: { sections: [] },
      brands: new Set(['verde', 'grupo', 'limpia']),
      check: (raw, where, routesOf) => checkScreen(raw, where, { routesOf, docsDir: V1_DIR }),
      upgrade: (raw, where) => upgradeScreen(raw, where),
      failureThreshold: 3,
      log: { warn: () => undefined, error: () => undefined },
    })
    try {
      // The admin's edit, as the studio sent it while screens were still written at version 1.
      const edit = JSON.parse(fs.readFileSync(V1_FILE, 'utf8')) as { root: { children: { columns?: { field: string; header: unknown }[] }[] } }
      edit.root.children[0]!.columns!.find((c) => c.field === 'FechaAlta')!.header = { es: 'Fecha', en: 'Date' }
      const saved = await service.save('clientes-v1', edit, undefined, admin)
      await service.publish('clientes-v1', saved.version, null, admin)
      const served = (await service.screenFor('clientes-v1', { brand: 'verde', groups: [] }))!.screen
      expect(served.schemaVersion).toBe(SCREEN_SCHEMA_VERSION)
      expect(tables(served)[0]!.columns.find((c) => c.field === 'FechaAlta')!.header).toEqual({ es: 'Fecha', en: 'Date' })
      expect(tables(served)[0]!.columns.map((c) => c.filter?.input)).toEqual(['text', 'multiselect', 'dateRange'])
      expect(forms(served)[0]!.fields[0]!.input).toBe('email')
      for (const f of forms(served)) for (const field of f.fields) expect(field).not.toHaveProperty('type')
    } finally {
      service.close()
    }
  })
})
