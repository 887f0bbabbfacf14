declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number
    height?: number
    preserveAspectRatio?: string
    useCSS?: boolean
    assumePt?: boolean
    precision?: number
    fontCallback?: (family: string, bold: boolean, italic: boolean, fontOptions: { fauxItalic: boolean }) => string
    warningCallback?: (message: string) => void
  }
  /** Draws an SVG document (as text) onto a PDFKit document at (x, y). */
  export default function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x?: number, y?: number, options?: SvgToPdfOptions): void
}
