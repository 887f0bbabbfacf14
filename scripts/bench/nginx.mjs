// nginx in front of the reference API: the practical ceiling of a reverse proxy on this
// machine. Debian's package, installed when missing (the script is run by hand, as root).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { startProcess } from './processes.mjs'

const NGINX = '/usr/sbin/nginx'

/** Installs Debian's nginx when it is not there (policy-rc.d keeps the package's own service from starting in containers). */
export function ensureNginx() {
  if (fs.existsSync(NGINX)) return
  if (process.getuid?.() !== 0) throw new Error('nginx is not installed: run `apt-get install nginx` as root, or the benchmark as root')
  console.log('installing nginx (apt-get install nginx) …')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  let install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env })
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env })
  }
  if (install.status !== 0 || !fs.existsSync(NGINX)) throw new Error('could not install nginx with apt-get')
}

/**
 * The configuration: `proxy_pass` over a keep-alive pool to the upstream, requests per
 * connection raised on both sides, the same headers the BFF sets (bearer token, brand
 * domain, request id, forwarded host and scheme; the browser's cookie dropped), and a
 * buffered access log to a file as a production nginx keeps.
 */
export function nginxConfig({ dir, port, upstreamPort, token, brandDomain }) {
  return `daemon off;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
    access_log ${dir}/access.log combined buffer=64k flush=1s;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    upstream reference_api {
        server 127.0.0.1:${upstreamPort};
        keepalive 256;
        keepalive_requests 1000000;
        keepalive_timeout 60s;
    }
    server {
        listen 127.0.0.1:${port};
        location /api/ {
            proxy_pass http://reference_api;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Cookie "";
            proxy_set_header Authorization "Bearer ${token}";
            proxy_set_header X-Brand-Domain "${brandDomain}";
            proxy_set_header X-Request-Id $request_id;
            proxy_set_header X-Forwarded-Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
        }
    }
}
`
}

/** Starts nginx in the foreground (its master is our child; the workers are the master's). */
export function startNginx({ dir, port, upstreamPort, token, brandDomain }) {
  fs.mkdirSync(dir, { recursive: true })
  const conf = path.join(dir, 'nginx.conf')
  fs.writeFileSync(conf, nginxConfig({ dir, port, upstreamPort, token, brandDomain }))
  return startProcess('nginx', NGINX, ['-c', conf, '-p', dir], { env: process.env, logFile: path.join(dir, 'nginx.out') })
}
