// Before any walk: Debian's Chromium must be there (Playwright downloads no browser here).
import fs from 'node:fs'
import { CHROMIUM_PATH } from './settings'

export default function globalSetup(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  }
}
