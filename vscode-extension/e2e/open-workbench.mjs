// Opens the code-server workbench in Debian's headless Chromium (that is what makes code-server
// start its extension host) and waits until the e2e driver extension has written OUT_JSON.
// Usage: node open-workbench.mjs BASE_URL FOLDER OUT_JSON [TIMEOUT_S=120]
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const [base, folder, out, timeoutS = '120'] = process.argv.slice(2);
const t0 = Date.now();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`);
while (!fs.existsSync(out) && Date.now() - t0 < Number(timeoutS) * 1000) await page.waitForTimeout(100);
const ok = fs.existsSync(out);
console.error(ok ? `driver result after ${(Date.now() - t0) / 1000}s` : 'timeout waiting for the e2e driver');
await browser.close();
process.exit(ok ? 0 : 1);
