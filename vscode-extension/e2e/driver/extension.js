// Test-only extension for the real-VS-Code end-to-end test: inside code-server's extension host
// it opens the sample files, waits for puppet-ls's diagnostics, asks VS Code for the hover and
// the completions (the providers the Puppet extension registered), checks the status item and the
// "server not found" and "needs Python" messages, and writes everything as JSON to $E2E_OUT.  Idle without it.
const vscode = require('vscode');
const fs = require('fs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn, timeoutMs = 30000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timeout waiting for ' + what);
    await sleep(50);
  }
}
const pos = (s) => { const [l, c] = s.split(':').map(Number); return new vscode.Position(l, c); };
const diagJson = (d) => ({ line: d.range.start.line, character: d.range.start.character, message: d.message,
  severity: vscode.DiagnosticSeverity[d.severity], source: d.source, code: typeof d.code === 'object' ? d.code.value : d.code });

async function run(r) {
  const t0 = Date.now();
  const uri = vscode.Uri.file(process.env.E2E_FILE);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  r.languageId = doc.languageId;
  const ext = vscode.extensions.getExtension('puppet-ls.puppet-ls');
  r.extensionVersion = ext.packageJSON.version;
  const api = await ext.activate();
  await until('the server to run', () => api.state === 'running');
  r.status = { state: api.state, text: api.statusText, serverInfo: api.serverInfo, how: api.how };

  const diags = await until('diagnostics', () => { const d = vscode.languages.getDiagnostics(uri); return d.length ? d : null; });
  r.diagnostics = diags.map(diagJson);
  const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, pos(process.env.E2E_HOVER_POS));
  r.hover = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
  const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, pos(process.env.E2E_COMPLETION_POS));
  r.completion = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));

  // an EPP template gets its own language and the server's diagnostics too
  const epp = vscode.Uri.file(process.env.E2E_EPP_FILE);
  const eppDoc = await vscode.workspace.openTextDocument(epp);
  await vscode.window.showTextDocument(eppDoc);
  r.epp = { languageId: eppDoc.languageId,
            diagnostics: (await until('EPP diagnostics', () => { const d = vscode.languages.getDiagnostics(epp); return d.length ? d : null; })).map(diagJson) };
  await vscode.window.showTextDocument(doc);
  r.ms = Date.now() - t0;

  // rename and a quick fix, applied by VS Code as the rename box and the light bulb do
  if (process.env.E2E_REFACTOR_FILE) {
    const ref = vscode.Uri.file(process.env.E2E_REFACTOR_FILE);
    const refDoc = await vscode.workspace.openTextDocument(ref);
    await vscode.window.showTextDocument(refDoc);
    await until('diagnostics of the refactoring sample', () => vscode.languages.getDiagnostics(ref).length > 0);
    r.refactor = {};
    const edit = await vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', ref,
      pos(process.env.E2E_RENAME_POS), process.env.E2E_RENAME_TO);
    r.refactor.renameApplied = await vscode.workspace.applyEdit(edit);
    r.refactor.afterRename = refDoc.getText();
    const at = pos(process.env.E2E_QUICKFIX_POS);
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', ref,
      new vscode.Range(at, at), vscode.CodeActionKind.QuickFix.value);
    r.refactor.quickfixTitles = actions.map((a) => a.title);
    const chosen = actions.find((a) => a.edit);
    r.refactor.fixApplied = chosen ? await vscode.workspace.applyEdit(chosen.edit) : false;
    r.refactor.afterFix = refDoc.getText();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.window.showTextDocument(doc);
  }

  // a wrong server path: the status item says so and the message tells how to fix it
  await vscode.workspace.getConfiguration('puppet-ls').update('server.path', '/nonexistent/puppet-ls', vscode.ConfigurationTarget.Global);
  await until('the "not installed" state', () => api.state === 'missing');
  r.missing = { state: api.state, text: api.statusText, lastError: api.lastError };

  // no server setting, no puppet-ls and no Python on PATH (the extension host's environment is
  // shared by all extensions): the bundled copy has nothing to run it, and the status says so
  process.env.PATH = '/nonexistent';
  process.env.HOME = '/nonexistent';
  await vscode.workspace.getConfiguration('puppet-ls').update('server.path', undefined, vscode.ConfigurationTarget.Global);
  await until('the "needs Python" state', () => api.state === 'noPython');
  r.noPython = { state: api.state, text: api.statusText, lastError: api.lastError };
  return r;
}

function write(out, obj) {  // write, then rename: the runner never reads a half-written file
  fs.writeFileSync(out + '.tmp', JSON.stringify(obj, null, 2));
  fs.renameSync(out + '.tmp', out);
}

exports.activate = function () {
  const out = process.env.E2E_OUT;
  if (!out) return;
  const r = {};
  run(r)
    .then(() => write(out, { ok: true, ...r }))
    .catch((e) => write(out, { ok: false, error: String((e && e.stack) || e), ...r }));
};
exports.deactivate = function () {};
