// Works the previews of issue 16 in the real VS Code UI (code-server, headless Chromium): opens a
// class whose code depends on facts (fixtures/lsp/catalog: modules/lensdemo/manifests/init.pp),
// chooses the fact set debian12 with the fact-set status item and its quick pick, reads the inlay
// hints and the faded branches, switches to rhel9 the same way, reads them again, then clicks the
// "Preview catalog (rhel9)" code lens and reads the catalog document VS Code opens beside the class.
// Screenshots of each step go next to OUT_JSON.
// Usage: node previews-e2e.mjs BASE_URL FOLDER OUT_JSON
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const [base, folder, out] = process.argv.slice(2);
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
const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });

/** The lines of the first editor holding `marker`, in order, as shown (inlay hints included). */
async function editorLines(marker) {
  return page.evaluate((m) => {
    // (VS Code renders spaces as no-break spaces)
    const text = (l) => l.innerText.replace(/\u00a0/g, ' ');
    for (const ed of document.querySelectorAll('.part.editor .monaco-editor')) {
      const lines = [...ed.querySelectorAll('.view-line')];
      if (!lines.some((l) => text(l).includes(m))) continue;
      return lines.map((l) => [parseFloat(l.style.top) || 0, text(l)]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    }
    return [];
  }, marker);
}

/** Click the fact-set status item and choose `name` in its quick pick. */
async function chooseFactSet(name) {
  const item = page.locator('.statusbar-item', { has: page.locator('.codicon-server-environment') }).first();
  await item.click();
  await page.waitForSelector('.quick-input-widget .quick-input-list .monaco-list-row', { state: 'visible', timeout: 30000 });
  result.quickPick = (await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts())
    .map((t) => t.replace(/\s+/g, ' ').trim());
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first().click();
}

/** The 0-based lines of the class's editor where a faded (unnecessary) range is shown. */
async function faded() {
  return page.evaluate(() => {
    for (const ed of document.querySelectorAll('.part.editor .monaco-editor')) {
      const lines = [...ed.querySelectorAll('.view-line')].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
      if (!lines.some((l) => l.innerText.replace(/\u00a0/g, ' ').includes('class lensdemo'))) continue;
      return lines.flatMap((l, i) => (l.querySelector('.squiggly-inline-unnecessary') ? [i] : []));
    }
    return [];
  });
}

async function statusText() {
  const item = page.locator('.statusbar-item', { has: page.locator('.codicon-server-environment') }).first();
  return (await item.innerText()).trim();
}

try {
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
  lap('workbench loaded');
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 30000 });
  await page.keyboard.type('lensdemo/manifests/init.pp');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'init.pp' }).first();
  await row.waitFor({ timeout: 30000 });
  await row.click();
  await page.locator(`${ED} .view-lines`, { hasText: 'class lensdemo' }).waitFor({ timeout: 30000 });
  lap('editor open');

  // no fact set yet: the item says so, and the lens offers the CLI's default set
  await page.locator('.statusbar-item .codicon-server-environment').first().waitFor({ timeout: 60000 });
  result.statusBefore = await statusText();
  await page.locator('.codelens-decoration a', { hasText: 'Preview catalog' }).first().waitFor({ timeout: 60000 });
  result.lensBefore = (await page.locator('.codelens-decoration').first().innerText()).trim();
  result.linesBefore = await editorLines('class lensdemo');
  lap('lens shown');

  // debian12, chosen with the status item: hints and a faded branch
  await chooseFactSet('debian12');
  await page.waitForFunction(() => document.querySelector('.part.editor .monaco-editor .view-lines')?.innerText.includes('/etc/apache2/ports.conf'),
    null, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll('.part.editor .monaco-editor .squiggly-inline-unnecessary').length > 0,
    null, { timeout: 60000 });
  await page.waitForTimeout(500);
  result.debian12 = { status: await statusText(), lines: await editorLines('class lensdemo'), faded: await faded(),
    lens: (await page.locator('.codelens-decoration').first().innerText()).trim() };
  await page.screenshot({ path: path.join(dir, 'vscode-previews-debian12.png') });
  lap('debian12 previews shown');

  // rhel9: the hints change
  await chooseFactSet('rhel9');
  await page.waitForFunction(() => {
    const t = document.querySelector('.part.editor .monaco-editor .view-lines')?.innerText ?? '';
    return t.includes('/etc/httpd/ports.conf') && !t.includes('/etc/apache2/ports.conf');
  }, null, { timeout: 60000 });
  await page.locator('.codelens-decoration a', { hasText: 'Preview catalog (rhel9)' }).first().waitFor({ timeout: 60000 });
  await page.waitForTimeout(500);
  result.rhel9 = { status: await statusText(), lines: await editorLines('class lensdemo'), faded: await faded(),
    lens: (await page.locator('.codelens-decoration').first().innerText()).trim() };
  await page.screenshot({ path: path.join(dir, 'vscode-previews-rhel9.png') });
  lap('rhel9 previews shown');

  // the lens: the catalog in a read-only document beside the class
  await page.locator('.codelens-decoration a', { hasText: 'Preview catalog (rhel9)' }).first().click();
  await page.locator(`${ED} .view-lines`, { hasText: 'Catalog of class lensdemo' }).waitFor({ timeout: 60000 });
  await page.waitForTimeout(500);
  result.catalog = {
    lines: await editorLines('Catalog of class lensdemo'),
    tabs: (await page.locator('.part.editor .tab').allInnerTexts()).map((t) => t.replace(/\s+/g, '')),
  };
  await page.screenshot({ path: path.join(dir, 'vscode-catalog-rhel9.png') });
  // read-only: typing into it changes nothing
  await page.locator(`${ED} .view-lines`, { hasText: 'Catalog of class lensdemo' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('typed');
  await page.waitForTimeout(500);
  result.catalog.afterTyping = await editorLines('Catalog of class lensdemo');
  lap('catalog shown');
  result.settings = JSON.parse(fs.readFileSync(path.join(folder, '.vscode', 'settings.json'), 'utf8'));
  result.ok = true;
} catch (e) {
  result.error = String(e);
  await page.screenshot({ path: path.join(dir, 'vscode-previews-failure.png') }).catch(() => {});
} finally {
  result.seconds = (Date.now() - t0) / 1000;
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  await browser.close();
  process.exit(result.ok ? 0 : 1);
}
