// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { setLanguage } from '../../client/i18n/i18n'
import { formatMonth } from '../../client/ui/format'
import { compareText } from '../../client/ui/text-order'

afterEach(() => setLanguage('es'))

describe('the order of texts (grid columns, options, file names)', () => {
  it('is Spanish, accents and case aside, digits as numbers', () => {
    const names = ['Fila 10', 'zapato', 'Ñandú', 'fila 2', 'Árbol', 'nube', 'arce']
    expect([...names].sort(compareText)).toEqual(['Árbol', 'arce', 'fila 2', 'Fila 10', 'nube', 'Ñandú', 'zapato'])
    expect(compareText('ÁLAMO', 'alamo')).toBe(0)
  })
})

describe('a month of a year', () => {
  it('is short, in the interface language, without the abbreviation dot', () => {
    expect(formatMonth(2026, 1)).toBe('ene 2026')
    expect(formatMonth(2025, 9)).toBe('sept 2025')
    setLanguage('en')
    expect(formatMonth(2026, 1)).toBe('Jan 2026')
    expect(formatMonth(2025, 12)).toBe('Dec 2025')
  })
})
