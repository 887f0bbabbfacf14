import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MarkdownNode, ScreenNode } from '../../schemas/screen'
import { loadRoutes } from '../../server/manifest/manifest-data'
import { visitNodes } from '../../schemas/screen-walk'
import { loadScreens } from '../../server/screens/screen-loader'
import { signedInBffOverFake, type SignedInBff } from '../helpers/bff'

/**
 * The documentation pages (server/screens/docs/*.md, Spanish) and their English versions
 * (*.en.md beside them): every page has both, the English keeps the Spanish one's shape (headings,
 * tables, code, links), every link leads somewhere, and the loader serves `{ es, en }`.
 */

const docsDir = path.resolve('server/screens/docs')
const spanishDocs = fs
  .readdirSync(docsDir)
  .filter((f) => f.endsWith('.md') && !f.endsWith('.en.md'))
  .sort()
const read = (name: string) => fs.readFileSync(path.join(docsDir, name), 'utf8')
const englishOf = (name: string) => name.replace(/\.md$/, '.en.md')

/** The lines of a markdown text outside fenced code blocks, and the fenced blocks themselves. */
function split(md: string): { prose: string[]; fences: string[] } {
  const prose: string[] = []
  const fences: string[] = []
  let fence: string[] | null = null
  for (const line of md.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) {
        fences.push(fence.join('\n'))
        fence = null
      } else fence = []
      continue
    }
    if (fence) fence.push(line)
    else prose.push(line)
  }
  return { prose, fences }
}

/** Inline code spans are taken out first, so a link or a bracket inside one does not count. */
const withoutCode = (line: string) => line.replace(/`[^`]*`/g, '')

/** Heading levels in order (`#`, `##`…): the hierarchy the translation must keep. */
const headingLevels = (md: string) => split(md).prose.flatMap((l) => (/^(#{1,6})\s/.exec(l) ? [/^(#{1,6})/.exec(l)![1]!.length] : []))

/** Each table as its number of cells per row. */
function tableShapes(md: string): number[][] {
  const tables: number[][] = []
  let current: number[] | null = null
  for (const line of split(md).prose) {
    if (/^\s*\|/.test(line)) {
      const cells = withoutCode(line).trim().replace(/^\||\|$/g, '').split('|').length
      if (!current) tables.push((current = []))
      current.push(cells)
    } else current = null
  }
  return tables
}

/** Inline code spans, sorted: codes, paths and example values stay as they are. */
const codeSpans = (md: string) => split(md).prose.flatMap((l) => [...l.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)).sort()

/** Link targets, sorted. */
const linkTargets = (md: string) => split(md).prose.flatMap((l) => [...withoutCode(l).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!)).sort()

/** A target inside the portal (a path, a query or an anchor), not an external address. */
const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//')

/** The anchor a heading gets (GitHub style): lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
const anchorsOf = (md: string) => new Set(split(md).prose.flatMap((l) => (/^#{1,6}\s+(.*)$/.exec(l) ? [slug(/^#{1,6}\s+(.*)$/.exec(l)![1]!)] : [])))

const screens = loadScreens(path.resolve('server/screens'))
const routes = loadRoutes().map((r) => r.path)
const routeMatches = (pathname: string) =>
  routes.some((r) => new RegExp(`^${r.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`, 'i').test(pathname))

/** Keys of the tabs of the documentation screen, which `/documentacion?doc.tab=<key>` opens. */
const docTabs = new Set<string>()
visitNodes(screens.get('documentacion')!.root, (n: ScreenNode) => {
  if (n.type === 'tabs' && n.id === 'doc') for (const t of n.tabs) docTabs.add(t.key)
})

/** Why a relative link of `doc` leads nowhere, or null when it is fine. */
function brokenLink(target: string, doc: string): string | null {
  const [beforeHash, anchor] = target.split('#', 2) as [string, string | undefined]
  const [pathname, query] = beforeHash.split('?', 2) as [string, string | undefined]
  if (pathname === '') return anchor === undefined || anchorsOf(doc).has(anchor) ? null : `no heading for #${anchor}`
  if (pathname.endsWith('.md')) return fs.existsSync(path.join(docsDir, pathname)) ? null : `no document ${pathname}`
  if (!pathname.startsWith('/')) return 'a relative path that does not start with /'
  if (!routeMatches(pathname)) return `no route ${pathname}`
  const tab = new URLSearchParams(query ?? '').get('doc.tab')
  if (tab !== null && (pathname !== '/documentacion' || !docTabs.has(tab))) return `no documentation tab ${tab}`
  return null
}

describe('documentation pages', () => {
  it('exist in Spanish and English, in pairs', () => {
    expect(spanishDocs.length).toBeGreaterThan(0)
    const missing = spanishDocs.filter((f) => !fs.existsSync(path.join(docsDir, englishOf(f))))
    expect(missing, 'Spanish pages without their .en.md').toEqual([])
    const orphans = fs
      .readdirSync(docsDir)
      .filter((f) => f.endsWith('.en.md') && !fs.existsSync(path.join(docsDir, f.replace(/\.en\.md$/, '.md'))))
    expect(orphans, 'English pages without their Spanish one').toEqual([])
    for (const f of spanishDocs) expect(read(englishOf(f)).trim().length, f).toBeGreaterThan(0)
  })

  describe.each(spanishDocs)('%s in English', (file) => {
    const es = read(file)
    const en = read(englishOf(file))

    it('keeps the heading hierarchy', () => {
      expect(headingLevels(en)).toEqual(headingLevels(es))
    })

    it('keeps every table with its rows and columns', () => {
      expect(tableShapes(en)).toEqual(tableShapes(es))
    })

    it('keeps code, paths and example values as they are', () => {
      expect(codeSpans(en)).toEqual(codeSpans(es))
      expect(split(en).fences).toEqual(split(es).fences)
    })

    it('keeps every relative link and anchor of the Spanish page', () => {
      expect(linkTargets(en).filter(isRelative)).toEqual(linkTargets(es).filter(isRelative))
    })

    it('links only to routes, documentation tabs and headings that exist', () => {
      for (const [name, doc] of [
        [file, es],
        [englishOf(file), en],
      ] as const) {
        const broken = linkTargets(doc)
          .filter(isRelative)
          .flatMap((t) => {
            const why = brokenLink(t, doc)
            return why ? [`${t}: ${why}`] : []
          })
        expect(broken, name).toEqual([])
      }
    })
  })
})

describe('the loader inlines markdown files', () => {
  it('with both languages when the English file exists', () => {
    const docNodes: MarkdownNode[] = []
    visitNodes(screens.get('documentacion')!.root, (n) => {
      if (n.type === 'markdown') docNodes.push(n)
    })
    expect(docNodes).toHaveLength(spanishDocs.length)
    const served = new Map(docNodes.map((n) => [typeof n.content === 'object' ? n.content.es : n.content, n.content]))
    for (const f of spanishDocs) expect(served.get(read(f)), f).toEqual({ es: read(f), en: read(englishOf(f)) })
    for (const n of docNodes) expect(n).not.toHaveProperty('file')
  })

  describe('in a folder of its own', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screen-docs-'))
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

    it('keeps the Spanish text alone when there is no English file', () => {
      fs.mkdirSync(path.join(dir, 'docs'))
      fs.writeFileSync(path.join(dir, 'docs', 'uno.md'), '# Uno\n')
      fs.writeFileSync(path.join(dir, 'docs', 'dos.md'), '# Dos\n')
      fs.writeFileSync(path.join(dir, 'docs', 'dos.en.md'), '# Two\n')
      const screen = (id: string, file: string) => ({ schemaVersion: 1, id, title: 'Doc', root: { type: 'page', title: 'Doc', children: [{ type: 'markdown', file }] } })
      fs.writeFileSync(path.join(dir, 'solo.json'), JSON.stringify(screen('solo', 'uno.md')))
      fs.writeFileSync(path.join(dir, 'ambos.json'), JSON.stringify(screen('ambos', 'dos.md')))
      const loaded = loadScreens(dir)
      const contentOf = (id: string) => ((loaded.get(id)!.root as Extract<ScreenNode, { type: 'page' }>).children[0] as MarkdownNode).content
      expect(contentOf('solo')).toBe('# Uno\n')
      expect(contentOf('ambos')).toEqual({ es: '# Dos\n', en: '# Two\n' })
    })
  })
})

describe('GET /bff/screens/documentacion', () => {
  let signedIn: SignedInBff
  beforeAll(async () => {
    signedIn = await signedInBffOverFake()
  })
  afterAll(async () => {
    await signedIn?.close()
  })

  it('serves every page with its Spanish and English text', async () => {
    const res = await request(signedIn.bff.app.server).get('/bff/screens/documentacion').set('Cookie', signedIn.cookie).expect(200)
    const contents: unknown[] = []
    visitNodes(res.body.root, (n) => {
      if (n.type === 'markdown') contents.push(n.content)
    })
    expect(contents).toHaveLength(spanishDocs.length)
    for (const f of spanishDocs) expect(contents, f).toContainEqual({ es: read(f), en: read(englishOf(f)) })
  })
})
