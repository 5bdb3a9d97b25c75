// Before the browser tests: build the web client (the server serves web/dist) and synthesize the
// meeting the fake microphone plays — flite voices, resampled by sox to a 48 kHz mono WAV.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { synthesizeMeeting } from '../speech.ts'
import { ARTIFACTS, MEETING_WAV } from '../../playwright.config.ts'
import { MEETING } from './meeting.ts'

export default async function globalSetup() {
  const root = path.resolve(import.meta.dirname, '../..')
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  mkdirSync(ARTIFACTS, { recursive: true })
  const { pcm } = synthesizeMeeting(MEETING)
  const source = path.join(ARTIFACTS, 'meeting-16k.raw')
  writeFileSync(source, pcm)
  execFileSync('sox', ['-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', source, '-r', '48000', '-c', '1', '-b', '16', MEETING_WAV])
}
