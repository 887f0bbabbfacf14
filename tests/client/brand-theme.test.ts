import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { brandThemeCss } from '../../vite.config'

const themesDir = path.resolve('node_modules/primereact/resources/themes')

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const variable = (css: string, name: string) => new RegExp(`${name}: (#[0-9a-f]{6});`, 'i').exec(css)?.[1] ?? ''

describe.each(['lara-light-green', 'lara-light-cyan', 'lara-light-teal'])('brand theme %s', (theme) => {
  const css = brandThemeCss(theme, fs.readFileSync(path.join(themesDir, theme, 'theme.css'), 'utf8'))

  it('highlighted things (selected menu entry, option, row) keep readable text: AA contrast', () => {
    const bg = variable(css, '--highlight-bg')
    const fg = variable(css, '--highlight-text-color')
    expect(contrast(bg, fg)).toBeGreaterThanOrEqual(4.5)
  })

  it('no rule paints text and background the same colour', () => {
    const blocks = css.match(/\{[^{}]*\}/g) ?? []
    const blank = blocks.filter((b) => {
      const color = /(?:^|[^-])color: (#[0-9a-f]{6})/i.exec(b)?.[1]
      const background = /background: (#[0-9a-f]{6})/i.exec(b)?.[1]
      return color && background && color.toLowerCase() === background.toLowerCase()
    })
    expect(blank).toEqual([])
  })

  it('the primary fill carries white text at AA contrast', () => {
    expect(contrast(variable(css, '--primary-color'), '#ffffff')).toBeGreaterThanOrEqual(4.5)
  })
})
