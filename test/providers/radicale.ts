// A real CalDAV server (Debian `radicale`) on 127.0.0.1 for the calendar connector's tests:
// htpasswd (plain) users, owner-only rights, storage in a temporary directory.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { DAVClient } from 'tsdav'
import { tempDir } from '../databases.ts'
import { freePort } from '../e2e/server.ts'

export type Radicale = { url: string; username: string; password: string; calendarUrl: string; close(): Promise<void> }

export async function startRadicale(): Promise<Radicale> {
  const dir = tempDir('radicale-')
  const port = await freePort()
  const username = 'alice'
  const password = 'calendar-secret'
  writeFileSync(path.join(dir, 'users'), `${username}:${password}\n`)
  writeFileSync(path.join(dir, 'config'), [
    '[server]', `hosts = 127.0.0.1:${port}`,
    '[auth]', 'type = htpasswd', `htpasswd_filename = ${path.join(dir, 'users')}`, 'htpasswd_encryption = plain',
    '[rights]', 'type = owner_only',
    '[storage]', `filesystem_folder = ${path.join(dir, 'collections')}`,
    '[logging]', 'level = warning',
  ].join('\n'))
  const child = spawn('radicale', ['--config', path.join(dir, 'config')], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`radicale exited with ${child.exitCode}`)
    try {
      await fetch(url)
      break
    } catch {
      if (attempt > 100) throw new Error('radicale did not start')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const client = new DAVClient({ serverUrl: url, credentials: { username, password }, authMethod: 'Basic', defaultAccountType: 'caldav' })
  await client.login()
  const calendarUrl = `${url}/${username}/follow-ups/`
  await client.makeCalendar({ url: calendarUrl, props: { displayname: 'Follow-ups' } })
  return {
    url, username, password, calendarUrl,
    close: async () => {
      child.kill('SIGTERM')
    },
  }
}
