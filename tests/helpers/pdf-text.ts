import zlib from 'node:zlib'

/** Windows-1252 (the standard fonts' WinAnsi encoding): latin-1 except 0x80–0x9F (€, dashes, quotes…). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'
const winAnsi = (bytes: Buffer) => [...bytes].map((b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : String.fromCharCode(b))).join('')

/**
 * The text drawn on the pages of a PDF: every content stream (inflated when compressed), the
 * strings of its `Tj`/`TJ` operators (hex or literal; the pieces of a kerned `TJ` joined), one
 * line per operator. Enough to find a contract code in a pdfkit document.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1')
  const lines: string[] = []
  // `stream` keywords only (not the end of an `endstream`).
  const re = /(?<!end)stream\r?\n/g
  let m: RegExpExecArray | null
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length
    const end = raw.indexOf('endstream', start)
    if (end < 0) break
    const chunk = pdf.subarray(start, end)
    let content: string
    try {
      content = zlib.inflateSync(chunk, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('latin1')
    } catch {
      content = chunk.toString('latin1')
    }
    for (const op of content.matchAll(/\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9A-Fa-f\s]*>|\((?:[^()\\]|\\.)*\))\s*Tj/g)) {
      const seq = op[1] ?? op[2] ?? ''
      let line = ''
      for (const s of seq.matchAll(/<([0-9A-Fa-f\s]*)>|\(((?:[^()\\]|\\.)*)\)/g)) {
        if (s[1] !== undefined) line += winAnsi(Buffer.from(s[1].replace(/\s/g, ''), 'hex'))
        else line += (s[2] ?? '').replace(/\\([()\\])/g, '$1')
      }
      lines.push(line)
    }
    re.lastIndex = end + 'endstream'.length
  }
  return lines.join('\n')
}
