import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { refreshShown } from '../../client/api/live-refresh'
import { nodeKey } from '../../client/api/query-keys'
import { loadCallIndex } from '../../client/api/call-catalogue'
import { recordReadCalls, shownRecord } from '../../schemas/catalogue/records'

/** What a change event refreshes: by the catalogue's record keys and list kinds, nothing else. */

const KEYS = {
  contractList: [...nodeKey('contratos'), '/api/contract', { pageIndex: 0, pageSize: 20 }],
  thisContract: [...nodeKey('contrato'), '/api/contract/id', { codigo: 'EV-1' }],
  otherContract: [...nodeKey('contrato'), '/api/contract/id', { codigo: 'EV-2' }],
  itsDocuments: [...nodeKey('documentos'), '/api/contract/documentos', { contrato: 'EV-1' }],
  itsHistory: [...nodeKey('contrato-cambios'), '/bff/audit/record', { entity: 'contrato', id: 'EV-1' }],
  userList: [...nodeKey('usuarios'), '/api/usuarios', { pageIndex: 0 }],
  agentDetail: [...nodeKey('agente'), '/api/agentes/9', {}],
  form: ['form-initial', 'contrato-editar', '/api/contract/id', { codigo: 'EV-1' }],
} as const

async function refreshedBy(change: { entity: string; id?: string }): Promise<string[]> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  for (const key of Object.values(KEYS)) client.setQueryData(key, {})
  await refreshShown(client, { type: 'change', call: 'PUT api/x', ...change })
  return Object.entries(KEYS)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
}

describe('live refresh', () => {
  it('a contract’s change refreshes contract lists and the reads of that contract, not another’s, and never a form', async () => {
    expect(await refreshedBy({ entity: 'contrato', id: 'EV-1' })).toEqual(['contractList', 'thisContract', 'itsDocuments', 'itsHistory'])
  })

  it('a change whose key is unknown (personal) refreshes every read of its kind', async () => {
    expect(await refreshedBy({ entity: 'contrato' })).toEqual(['contractList', 'thisContract', 'otherContract', 'itsDocuments', 'itsHistory'])
  })

  it('a user’s change refreshes user lists; an agent’s, that agent’s detail', async () => {
    expect(await refreshedBy({ entity: 'usuario', id: '3' })).toEqual(['userList'])
    expect(await refreshedBy({ entity: 'agente', id: '9' })).toEqual(['agentDetail'])
  })

  it('a detail screen’s record is the read call of its kind only', async () => {
    const index = (await loadCallIndex())!
    const reads = recordReadCalls(index.calls)
    expect([...reads.keys()].sort()).toEqual(['agente', 'apiUsuario', 'contrato', 'usuario'])
    expect(shownRecord(index.find('GET', 'api/contract/id')!, { codigo: 'EV-1' }, reads)).toEqual({ entity: 'contrato', id: 'EV-1' })
    expect(shownRecord(index.find('GET', 'api/usuarios/42')!, {}, reads)).toEqual({ entity: 'usuario', id: '42' })
    expect(shownRecord(index.find('GET', 'api/contract/documentos')!, { contrato: 'EV-1' }, reads)).toBeNull()
    expect(shownRecord(index.find('GET', 'api/contract/id')!, {}, reads)).toBeNull()
  })
})
