import fs from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'

export interface MailMessage {
  to: string
  subject: string
  text: string
}

/** The mail port: the reference API sends password-reset links through it. */
export interface Mailer {
  send(message: MailMessage): Promise<void>
}

/**
 * Default adapter: each message becomes an RFC 822 file in `DATA_DIR/outbox` and a log line.
 * The log line names the recipient and subject only: the body holds a reset token.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly dir: string,
    private readonly log: FastifyBaseLogger,
    private readonly from = 'Portal <no-responder@portal.test>',
  ) {}

  async send(message: MailMessage): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true })
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const file = path.join(this.dir, `${stamp}-${randomBytes(3).toString('hex')}.eml`)
    const eml = [
      `From: ${this.from}`,
      `To: ${message.to}`,
      `Subject: =?UTF-8?B?${Buffer.from(message.subject).toString('base64')}?=`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      message.text,
      '',
    ].join('\r\n')
    await fs.writeFile(file, eml, 'utf8')
    this.log.info({ event: 'mail_sent', to: message.to.replace(/^(.).*(@.*)$/, '$1***$2'), subject: message.subject, file: path.basename(file) }, 'mail written to outbox')
  }
}
