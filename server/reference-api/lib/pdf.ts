import type { FastifyReply } from 'fastify'
import fs from 'node:fs'
import path from 'node:path'
import PDFDocument from 'pdfkit'
import SVGtoPDF from 'svg-to-pdfkit'
import type { Marca } from './context'

/**
 * Brand-aware PDF documents (renewal proposals, contract prints; battery offers later): A4 pages with the brand's logo and a brand-coloured rule in the header, a title,
 * key/value and column tables, and a footer with the brand name and "Página i de n".
 *
 * Text uses the standard Helvetica fonts (WinAnsi: Spanish accents, ñ and € are covered).
 *
 *   const pdf = new BrandPdf(brandIdentity(ctx.brandsDir, request.marca), { title: 'Propuesta de renovación' })
 *   pdf.section('Datos del contrato').keyValues([['Código', code], ['Titular', name]])
 *   return sendPdf(reply, await pdf.toBuffer(), 'propuesta-renovacion-EV-2026-000123.pdf')
 */

export interface BrandIdentity {
  /** Folder name under brands/ (verde, grupo, limpia), or null when no folder matched. */
  key: string | null
  dominio: string
  nombre: string
  /** Primary colour, `#rrggbb`. */
  color: string
  /** The light logo (SVG text), or null when missing. */
  logoSvg: string | null
}

const DEFAULT_COLOR = '#047857'
const identities = new Map<string, BrandIdentity>()

/** The brand's name, colour and logo, found by matching `brand.json` Domain to the brand's domain. Cached. */
export function brandIdentity(brandsDir: string, marca: Pick<Marca, 'dominio' | 'nombre'>): BrandIdentity {
  const cacheKey = `${brandsDir}\n${marca.dominio}`
  const cached = identities.get(cacheKey)
  if (cached) return cached
  let identity: BrandIdentity = { key: null, dominio: marca.dominio, nombre: marca.nombre, color: DEFAULT_COLOR, logoSvg: null }
  try {
    for (const key of fs.readdirSync(brandsDir).sort()) {
      const file = path.join(brandsDir, key, 'brand.json')
      if (!fs.existsSync(file)) continue
      const brand = JSON.parse(fs.readFileSync(file, 'utf8')) as { Domain?: string; Name?: string; PrimaryColor?: string; LogoIdentidad?: { Light?: string } }
      if (brand.Domain?.toLowerCase() !== marca.dominio.toLowerCase()) continue
      const logoFile = path.join(brandsDir, key, brand.LogoIdentidad?.Light ?? 'logo-light.svg')
      identity = {
        key,
        dominio: marca.dominio,
        nombre: brand.Name ?? marca.nombre,
        color: /^#[0-9a-f]{6}$/i.test(brand.PrimaryColor ?? '') ? brand.PrimaryColor! : DEFAULT_COLOR,
        logoSvg: fs.existsSync(logoFile) ? fs.readFileSync(logoFile, 'utf8') : null,
      }
      break
    }
  } catch {
    // No brands folder: a plain document with the brand's name still works.
  }
  identities.set(cacheKey, identity)
  return identity
}

export interface BrandPdfOptions {
  title: string
  /** A line under the title (e.g. the contract code and a date). */
  subtitle?: string
  /** PDF metadata. */
  subject?: string
  author?: string
}

export interface TableColumn {
  header: string
  /** Share of the content width (the shares of a table should add up to 1). */
  width: number
  align?: 'left' | 'right' | 'center'
}

type Cell = string | number | null | undefined

const MARGIN = { top: 96, bottom: 64, left: 50, right: 50 } as const
const TEXT = '#1f2937'
const MUTED = '#6b7280'
const STRIPE = '#f3f4f6'
const FONT = 'Helvetica'
const FONT_BOLD = 'Helvetica-Bold'

export class BrandPdf {
  readonly doc: PDFKit.PDFDocument
  private readonly chunks: Buffer[] = []
  private readonly done: Promise<Buffer>

  constructor(
    readonly brand: BrandIdentity,
    readonly options: BrandPdfOptions,
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { ...MARGIN },
      bufferPages: true,
      info: {
        Title: options.title,
        Author: options.author ?? brand.nombre,
        Subject: options.subject ?? options.title,
        Creator: `Portal · ${brand.nombre}`,
      },
    })
    this.done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk))
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)))
      this.doc.on('error', reject)
    })
    this.doc.on('pageAdded', () => this.header())
    this.header()
    this.title()
  }

  /** Width between the left and right margins. */
  get contentWidth(): number {
    return this.doc.page.width - MARGIN.left - MARGIN.right
  }

  private get bottomLimit(): number {
    return this.doc.page.height - MARGIN.bottom
  }

  private header(): void {
    const { doc, brand } = this
    const top = 32
    if (brand.logoSvg) {
      try {
        SVGtoPDF(doc, brand.logoSvg, MARGIN.left, top, {
          width: 170,
          height: 34,
          preserveAspectRatio: 'xMinYMid meet',
          fontCallback: (_family, bold) => (bold ? FONT_BOLD : FONT),
          warningCallback: () => {},
        })
      } catch {
        this.brandNameAsLogo(top)
      }
    } else this.brandNameAsLogo(top)
    doc.font(FONT).fontSize(8).fillColor(MUTED).text(brand.dominio, MARGIN.left, top + 12, { width: this.contentWidth, align: 'right', lineBreak: false })
    doc.moveTo(MARGIN.left, 74).lineTo(doc.page.width - MARGIN.right, 74).lineWidth(2).strokeColor(brand.color).stroke()
    doc.fillColor(TEXT).font(FONT).fontSize(10)
    doc.x = MARGIN.left
    doc.y = MARGIN.top
  }

  private brandNameAsLogo(top: number): void {
    this.doc.font(FONT_BOLD).fontSize(18).fillColor(this.brand.color).text(this.brand.nombre, MARGIN.left, top + 6, { lineBreak: false })
  }

  private title(): void {
    const { doc } = this
    doc.font(FONT_BOLD).fontSize(18).fillColor(TEXT).text(this.options.title, MARGIN.left, MARGIN.top, { width: this.contentWidth })
    if (this.options.subtitle) doc.moveDown(0.2).font(FONT).fontSize(10.5).fillColor(MUTED).text(this.options.subtitle, { width: this.contentWidth })
    doc.moveDown(0.8).fillColor(TEXT).font(FONT).fontSize(10)
  }

  /** Starts a new page when less than `height` points remain above the footer. */
  ensureSpace(height: number): this {
    if (this.doc.y + height > this.bottomLimit) this.doc.addPage()
    return this
  }

  /** A section heading in the brand colour. */
  section(text: string): this {
    const { doc } = this
    this.ensureSpace(60)
    doc.moveDown(0.6).font(FONT_BOLD).fontSize(12).fillColor(this.brand.color).text(text, MARGIN.left, doc.y, { width: this.contentWidth })
    doc.moveDown(0.35).font(FONT).fontSize(10).fillColor(TEXT)
    return this
  }

  /** A paragraph of running text. */
  paragraph(text: string, opts: { muted?: boolean; size?: number; bold?: boolean } = {}): this {
    const { doc } = this
    doc.font(opts.bold ? FONT_BOLD : FONT).fontSize(opts.size ?? 10).fillColor(opts.muted ? MUTED : TEXT)
    this.ensureSpace(doc.heightOfString(text, { width: this.contentWidth }) + 4)
    doc.text(text, MARGIN.left, doc.y, { width: this.contentWidth, align: 'left', lineGap: 2 })
    doc.moveDown(0.5).fillColor(TEXT).font(FONT).fontSize(10)
    return this
  }

  /**
   * A framed key figure in the brand colour, e.g. the contract code: a small label above a
   * large bold value (plain text, so text extractors and searches find it).
   */
  highlight(label: string, value: string): this {
    const { doc } = this
    this.ensureSpace(56)
    const y = doc.y
    const height = 46
    doc.roundedRect(MARGIN.left, y, this.contentWidth, height, 4).lineWidth(1.2).strokeColor(this.brand.color).stroke()
    doc.font(FONT).fontSize(8.5).fillColor(MUTED).text(label, MARGIN.left + 12, y + 7, { width: this.contentWidth - 24, lineBreak: false })
    doc.font(FONT_BOLD).fontSize(17).fillColor(this.brand.color).text(value, MARGIN.left + 12, y + 20, { width: this.contentWidth - 24, lineBreak: false })
    doc.x = MARGIN.left
    doc.y = y + height
    doc.moveDown(0.6).fillColor(TEXT).font(FONT).fontSize(10)
    return this
  }

  /** Side-by-side signature boxes (a caption above each, optional lines of text inside). */
  signatureBoxes(boxes: readonly { caption: string; lines?: readonly string[] }[]): this {
    const { doc } = this
    const height = 78
    this.ensureSpace(height + 24)
    const gap = 16
    const width = (this.contentWidth - gap * (boxes.length - 1)) / boxes.length
    const y = doc.y
    boxes.forEach((box, i) => {
      const x = MARGIN.left + i * (width + gap)
      doc.font(FONT_BOLD).fontSize(9).fillColor(TEXT).text(box.caption, x, y, { width, lineBreak: false })
      doc.rect(x, y + 14, width, height - 14).lineWidth(0.7).strokeColor('#9ca3af').stroke()
      if (box.lines?.length) doc.font(FONT).fontSize(8.5).fillColor(MUTED).text(box.lines.join('\n'), x + 8, y + 22, { width: width - 16 })
    })
    doc.x = MARGIN.left
    doc.y = y + height
    doc.moveDown(0.8).fillColor(TEXT).font(FONT).fontSize(10)
    return this
  }

  /** Label/value rows (label column 36 % wide), striped. Empty values show as «—». */
  keyValues(rows: readonly (readonly [string, Cell])[], opts: { labelWidth?: number } = {}): this {
    const labelWidth = this.contentWidth * (opts.labelWidth ?? 0.36)
    this.rows(
      [
        { header: '', width: labelWidth / this.contentWidth },
        { header: '', width: 1 - labelWidth / this.contentWidth },
      ],
      rows.map(([k, v]) => [k, v]),
      { header: false, boldFirstColumn: true },
    )
    return this
  }

  /** A table with a brand-coloured header row, striped rows, repeated header after page breaks. */
  table(columns: readonly TableColumn[], rows: readonly (readonly Cell[])[]): this {
    this.rows(columns, rows, { header: true, boldFirstColumn: false })
    return this
  }

  private rows(columns: readonly TableColumn[], rows: readonly (readonly Cell[])[], opts: { header: boolean; boldFirstColumn: boolean }): void {
    const { doc } = this
    const padX = 6
    const padY = 3.5
    const widths = columns.map((c) => c.width * this.contentWidth)
    const show = (v: Cell) => (v === null || v === undefined || v === '' ? '—' : String(v))
    const heightOf = (cells: readonly string[], bold: boolean[]) =>
      Math.max(
        ...cells.map((text, i) => {
          doc.font(bold[i] ? FONT_BOLD : FONT).fontSize(9.5)
          return doc.heightOfString(text, { width: widths[i]! - 2 * padX })
        }),
      ) +
      2 * padY
    const draw = (cells: readonly string[], y: number, height: number, style: { fill?: string; color: string; bold: boolean[] }) => {
      let x = MARGIN.left
      if (style.fill) doc.rect(MARGIN.left, y, this.contentWidth, height).fill(style.fill)
      cells.forEach((text, i) => {
        doc.font(style.bold[i] ? FONT_BOLD : FONT).fontSize(9.5).fillColor(style.color)
        doc.text(text, x + padX, y + padY, { width: widths[i]! - 2 * padX, align: columns[i]?.align ?? 'left' })
        x += widths[i]!
      })
    }
    const headerCells = columns.map((c) => c.header)
    const headerBold = columns.map(() => true)
    const drawHeader = () => {
      const h = heightOf(headerCells, headerBold)
      const y = doc.y
      draw(headerCells, y, h, { fill: this.brand.color, color: '#ffffff', bold: headerBold })
      doc.y = y + h
    }
    if (opts.header) {
      this.ensureSpace(60)
      drawHeader()
    }
    rows.forEach((row, r) => {
      const cells = columns.map((_, i) => show(row[i]))
      const bold = columns.map((_, i) => opts.boldFirstColumn && i === 0)
      const h = heightOf(cells, bold)
      if (doc.y + h > this.bottomLimit) {
        doc.addPage()
        if (opts.header) drawHeader()
      }
      const y = doc.y
      draw(cells, y, h, { fill: r % 2 === 0 ? STRIPE : undefined, color: TEXT, bold })
      doc.y = y + h
    })
    doc.x = MARGIN.left
    doc.moveDown(0.6).fillColor(TEXT).font(FONT).fontSize(10)
  }

  /** Writes the footers (brand and page numbers) and finishes the document. */
  async toBuffer(): Promise<Buffer> {
    const { doc } = this
    const range = doc.bufferedPageRange()
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i)
      const y = doc.page.height - 40
      // Writing below the bottom margin would otherwise open a new page.
      doc.page.margins.bottom = 0
      doc.moveTo(MARGIN.left, y - 8).lineTo(doc.page.width - MARGIN.right, y - 8).lineWidth(0.5).strokeColor('#d1d5db').stroke()
      doc.font(FONT).fontSize(8).fillColor(MUTED)
      doc.text(`${this.brand.nombre} · ${this.brand.dominio}`, MARGIN.left, y, { width: this.contentWidth / 2, lineBreak: false })
      doc.text(`Página ${i - range.start + 1} de ${range.count}`, MARGIN.left + this.contentWidth / 2, y, { width: this.contentWidth / 2, align: 'right', lineBreak: false })
      doc.page.margins.bottom = MARGIN.bottom
    }
    doc.end()
    return this.done
  }
}

/** Sends a PDF as a download (or inline) with its file name in Content-Disposition. */
export function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): FastifyReply {
  const ascii = fileName.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_')
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'no-store')
    .header('content-length', pdf.length)
    .send(pdf)
}

// ── formatting for documents (Spanish conventions) ──────────────────────────────

/** `2026-12-10` → `10/12/2026`. */
export function fechaEs(isoDay: string | null | undefined): string {
  if (!isoDay) return '—'
  const [y, m, d] = isoDay.slice(0, 10).split('-')
  return `${d}/${m}/${y}`
}

/** A number in Spanish notation: `0,152034`, `3.450`. */
export function numeroEs(value: number | null | undefined, decimals = 2, minDecimals = decimals): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—'
  return value.toLocaleString('es-ES', { minimumFractionDigits: minDecimals, maximumFractionDigits: decimals, useGrouping: true })
}

/** `1.234,56 €`. */
export function euros(value: number | null | undefined, decimals = 2): string {
  return value === null || value === undefined ? '—' : `${numeroEs(value, decimals)} €`
}

/** An IBAN for documents with every digit hidden but the last four: `ES** **** **** **** **** 1332`. */
export function ibanEnmascarado(iban: string | null | undefined): string {
  if (!iban) return '—'
  const clean = iban.replace(/\s/g, '').toUpperCase()
  const masked = clean.slice(0, 2) + clean.slice(2, -4).replace(/[A-Z0-9]/g, '*') + clean.slice(-4)
  return masked.replace(/(.{4})/g, '$1 ').trim()
}
