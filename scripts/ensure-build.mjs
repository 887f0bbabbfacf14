// `npm start` builds the client only when no build exists yet.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'

const dist = process.env.CLIENT_DIST ?? 'dist/client'
if (!existsSync(`${dist}/index.html`)) {
  console.log('No client build found: building it once (npm run build)…')
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
