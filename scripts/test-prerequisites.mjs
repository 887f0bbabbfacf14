// First step of `npm test`: the suites drive Debian's Chromium and start Debian's
// redis-server, neither of which npm installs. When one is missing, install it (as root, with
// apt-get) or stop at once naming the one command to run — never minutes later in the middle
// of a suite. CHROMIUM_PATH points at another Chromium; TEST_PREREQUISITES=skip skips the check.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

if (process.env.TEST_PREREQUISITES === 'skip') process.exit(0)

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const onPath = (command) => (process.env.PATH ?? '').split(':').some((dir) => dir && fs.existsSync(`${dir}/${command}`))

/** Debian package → whether what the tests use is there. */
const needed = [
  ['chromium', () => fs.existsSync(chromium)],
  ['redis-server', () => onPath('redis-server')],
]
const missing = () => needed.filter(([, present]) => !present()).map(([pkg]) => pkg)

let packages = missing()
if (packages.length === 0) process.exit(0)

const install = `apt-get install -y --no-install-recommends ${packages.join(' ')}`
const command = `apt-get update && ${install}`
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot || !onPath('apt-get')) {
  console.error(`Faltan ${packages.join(' y ')} para los tests. Instálalos con:\n\n  sudo apt-get update && sudo ${install}\n`)
  process.exit(1)
}

console.log(`Instalando lo que necesitan los tests: ${packages.join(', ')} (apt-get)…`)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
  const run = spawnSync('apt-get', args, { stdio: 'inherit', env })
  if (run.status !== 0) {
    console.error(`apt-get ${args[0]} ha fallado (código ${run.status}). Instálalos a mano con:\n\n  ${command}\n`)
    process.exit(1)
  }
}
packages = missing()
if (packages.length > 0) {
  console.error(`Tras instalarlos siguen faltando: ${packages.join(', ')}.`)
  process.exit(1)
}
