import { describe, expect, it } from 'vitest'
import type { ActionSpec } from '../../schemas/screen'
import { changesData } from '../../client/renderer/actions/run-action'

const label = { es: 'Acción', en: 'Action' }

describe('what viewing as someone leaves offered', () => {
  it('navigation, dialogs, downloads and reads stay; calls and forms that change data do not', () => {
    const cases: [ActionSpec, boolean][] = [
      [{ id: 'a', label, kind: 'navigate', to: '/x' }, false],
      [{ id: 'b', label, kind: 'call', call: { method: 'GET', endpoint: 'api/x' } }, false],
      [{ id: 'c', label, kind: 'call', call: { method: 'DELETE', endpoint: 'api/x' } }, true],
      [{ id: 'd', label, kind: 'call', call: { method: 'POST', endpoint: 'bff/view-as' } }, true],
      [{ id: 'e', label, kind: 'download', call: { method: 'POST', endpoint: 'api/x' } }, false],
      [{ id: 'f', label, kind: 'form', form: { id: 'f', fields: [], submit: { method: 'PUT', endpoint: 'api/x' } } } as unknown as ActionSpec, true],
      [{ id: 'g', label, kind: 'form', form: { id: 'g', fields: [], submit: { method: 'GET', endpoint: 'api/x' } } } as unknown as ActionSpec, false],
    ]
    for (const [action, changes] of cases) expect(changesData(action), action.id).toBe(changes)
  })
})
