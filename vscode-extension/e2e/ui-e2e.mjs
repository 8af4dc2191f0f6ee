// Works the real VS Code UI (code-server) in Debian's headless Chromium the way a person would:
// Quick Open demo.pp, wait for puppet-ls's squiggle, read the Problems panel, open the hover on
// $greeting, trigger completion after a `$`, read the status bar, and take screenshots; in a
// control repo, also hover a profile included by a role (found through environment.conf).
// Usage: node ui-e2e.mjs BASE_URL FOLDER OUT_JSON [control-repo]   (screenshots go next to OUT_JSON)
// What was learnt: scope selectors to '.part.editor' (the chat input is a Monaco editor too);
// wait for the Quick Open row before Enter; open the hover with the keyboard (Ctrl+K Ctrl+I),
// because token <span>s do not line up with words for a mouse hover.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const [base, folder, out, kind] = process.argv.slice(2);
const dir = path.dirname(out);
const t0 = Date.now();
const lap = (m) => console.error(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const ED = '.part.editor .monaco-editor';
const result = { ok: false };

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

async function gotoLine(lineCol) {
  await page.locator(`${ED} .view-lines`).first().click();
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(lineCol);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
}

try {
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
  lap('workbench loaded');

  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 30000 });
  await page.keyboard.type('demo.pp');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo.pp' }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  await page.locator(`${ED} .view-lines`, { hasText: 'class demo' }).waitFor({ timeout: 30000 });
  result.languageMode = await page.locator('#status\\.editor\\.mode').innerText({ timeout: 10000 }).catch(() => null);
  lap('editor open');

  // the diagnostic: a squiggle in the editor and a row in the Problems panel
  await page.waitForSelector(`${ED} .squiggly-error`, { timeout: 60000 });
  await page.keyboard.press('Control+Shift+M');
  await page.waitForFunction(() => document.querySelector('.markers-panel')?.innerText.includes('declared more than once'),
    null, { timeout: 30000 });
  result.problems = (await page.locator('.markers-panel').innerText()).split('\n').filter(Boolean);
  lap('diagnostic shown');

  // the status bar item of the extension
  const item = page.locator('.statusbar-item', { hasText: 'puppet-ls' }).first();
  await page.waitForFunction(() => [...document.querySelectorAll('.statusbar-item')]
    .some((e) => e.innerText.includes('puppet-ls') && e.querySelector('.codicon-check')), null, { timeout: 30000 });
  result.statusBar = { text: (await item.innerText()).trim(), label: await item.getAttribute('aria-label'),
    icon: await item.locator('.codicon').first().getAttribute('class') };
  lap('status bar read');

  // hover on $greeting (line 9, column 18): Go to Line, then "Show or Focus Hover"
  await gotoLine('9:18');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  await page.waitForFunction(() => [...document.querySelectorAll('.monaco-hover')].some((e) => e.innerText.includes('String')),
    null, { timeout: 30000 });
  result.hover = (await page.locator('.monaco-hover', { hasText: 'String' }).first().innerText()).trim();
  await page.screenshot({ path: path.join(dir, 'vscode-hover.png') });
  await page.keyboard.press('Escape');
  lap('hover shown');

  // completion right after the `$` of $greeting (line 9, column 17)
  await gotoLine('9:17');
  await page.keyboard.press('Control+Space');
  await page.waitForFunction(() => document.querySelector('.suggest-widget.visible')?.innerText.includes('greeting'),
    null, { timeout: 30000 });
  result.completion = await page.locator('.suggest-widget .monaco-list-row .label-name').allInnerTexts();
  await page.screenshot({ path: path.join(dir, 'vscode-completion.png') });
  await page.keyboard.press('Escape');
  lap('completion shown');

  if (kind === 'control-repo') {
    // role::webserver includes profile::webserver: its hover shows the profile's @summary
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 30000 });
    await page.keyboard.type('role/manifests/webserver.pp');
    // click the role's row itself: under load, Enter took whichever row was first while the
    // list was still being filtered (role/manifests/base.pp once)
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'webserver.pp' }).filter({ hasText: 'role' }).first();
    await row.waitFor({ timeout: 30000 });
    await row.click();
    await page.locator(`${ED} .view-lines`, { hasText: 'class role::webserver' }).waitFor({ timeout: 30000 });
    await gotoLine('4:15');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await page.waitForFunction(() => [...document.querySelectorAll('.monaco-hover')].some((e) => e.innerText.includes('nginx')),
      null, { timeout: 30000 });
    result.controlRepoHover = (await page.locator('.monaco-hover', { hasText: 'nginx' }).first().innerText()).trim();
    await page.screenshot({ path: path.join(dir, 'vscode-control-repo-hover.png') });
    lap('control repo hover shown');
  }
  result.ok = true;
} catch (e) {
  result.error = String(e);
  await page.screenshot({ path: path.join(dir, 'vscode-failure.png') }).catch(() => {});
} finally {
  result.seconds = (Date.now() - t0) / 1000;
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  await browser.close();
  process.exit(result.ok ? 0 : 1);
}
