import net from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * Sends one HTTP/1.1 request exactly as written (request line, headers, body), with no client
 * library in between to normalise the target: for requests a browser would never send.
 */
export function rawRequest(port: number, head: string, body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')))
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const all = Buffer.concat(chunks)
      const end = all.indexOf('\r\n\r\n')
      const headText = all.subarray(0, end < 0 ? all.length : end).toString('latin1')
      const bodyText = end < 0 ? '' : all.subarray(end + 4).toString('utf8')
      const [statusLine = '', ...headerLines] = headText.split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0)
      const headers: Record<string, string> = {}
      for (const line of headerLines) {
        const i = line.indexOf(':')
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
      }
      resolve({ status, headers, body: bodyText })
    })
    const length = Buffer.byteLength(body)
    // Written, not ended: a half-closed socket may be dropped before a slow answer is sent.
    socket.write(`${head.replace(/\r?\n?$/, '')}\r\nConnection: close\r\n${length ? `Content-Length: ${length}\r\n` : ''}\r\n${body}`)
  })
}

/** A request line and headers: `METHOD target HTTP/1.1` then `Name: value` lines. */
export function requestHead(method: string, target: string, headers: Record<string, string>): string {
  return [`${method} ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n')
}
