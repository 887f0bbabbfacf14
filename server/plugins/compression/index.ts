import compress from '@fastify/compress'
import fp from 'fastify-plugin'
import zlib from 'node:zlib'

/**
 * Compresses dynamic answers (manifest, screens, upstream JSON that arrived plain) with brotli
 * or gzip, whichever the browser accepts. An answer that already carries a Content-Encoding (an
 * upstream that compresses, the client's precompressed build files) passes untouched, so nothing
 * is compressed twice. Request bodies stay as sent: the proxy streams uploads to the upstream.
 * Registered before the routes: @fastify/compress wraps each route registered after it (the
 * /metrics route, registered before it, answers plain).
 */
export const compressionPlugin = fp(
  async function compression(app) {
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: 1024,
      // Text, JSON, XML, JavaScript, SVG and what mime-db calls compressible. Not octet-stream,
      // which the library's default pattern adds: downloads of files gain little and would lose
      // their Content-Length, and with it the browser's download progress.
      customTypes: /^text\/(?!event-stream)|(?:\+|\/)(?:json|xml|javascript)(?:;|$)|^image\/svg\+xml/u,
      // Quality 4: close to gzip's speed on the fly; the build files get brotli 11 at build time.
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    })
  },
  { name: 'compression', fastify: '5.x' },
)
