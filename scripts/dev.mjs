// `npm run dev`: the BFF (restarting on server changes) plus Vite with hot reload in front of it.
import { spawn } from 'node:child_process'

const bffPort = process.env.PORT ?? '3000'
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: bffPort, NODE_ENV: process.env.NODE_ENV ?? 'development', BUILD_ID: 'dev' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], {
    stdio: 'inherit',
    env: { ...process.env, BFF_URL: `http://127.0.0.1:${bffPort}` },
  }),
]
const stop = (signal) => {
  for (const c of children) c.kill(signal)
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
for (const c of children) c.on('exit', (code) => {
  stop('SIGTERM')
  process.exit(code ?? 0)
})
