// Unit tests (node:test) for how the extension finds the server: settings, PATH, pip's user
// folder, python -m, and the messages with a fix when nothing is found.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainPythonProbe, Probe, resolveServer } from '../src/resolve';

function probe(executables: string[], PATH = '/usr/bin:/opt/venv/bin'): Probe {
  const set = new Set(executables);
  return { isExecutable: (f) => set.has(f), env: { PATH }, platform: 'linux', home: '/home/u' };
}
const none = { path: '', pythonPath: '', args: [] as string[] };

test('finds puppet-ls on PATH by default', () => {
  const r = resolveServer(none, probe(['/opt/venv/bin/puppet-ls']));
  assert.deepEqual(r, { ok: true, command: '/opt/venv/bin/puppet-ls', args: ['--stdio'], how: 'PATH (/opt/venv/bin/puppet-ls)' });
});

test("falls back to pip's user script folder", () => {
  const r = resolveServer(none, probe(['/home/u/.local/bin/puppet-ls']));
  assert.equal(r.ok && r.command, '/home/u/.local/bin/puppet-ls');
});

test('an explicit server path wins, with ~ expanded and extra args appended', () => {
  const r = resolveServer({ path: '~/bin/puppet-ls', pythonPath: '/usr/bin/python3', args: ['--log-file', '/tmp/l'] },
    probe(['/home/u/bin/puppet-ls', '/usr/bin/python3', '/opt/venv/bin/puppet-ls']));
  assert.deepEqual(r.ok && [r.command, r.args], ['/home/u/bin/puppet-ls', ['--stdio', '--log-file', '/tmp/l']]);
});

test('a bare name in server.path is looked up on PATH', () => {
  const r = resolveServer({ ...none, path: 'puppet-ls' }, probe(['/opt/venv/bin/puppet-ls']));
  assert.equal(r.ok && r.command, '/opt/venv/bin/puppet-ls');
});

test('pythonPath runs the server module', () => {
  const r = resolveServer({ ...none, pythonPath: 'python3' }, probe(['/usr/bin/python3']));
  assert.deepEqual(r.ok && [r.command, r.args], ['/usr/bin/python3', ['-m', 'puppet_ls.server.cli', '--stdio']]);
});

test('nothing installed: a message that says so, and the pip command as the fix', () => {
  const r = resolveServer(none, probe([]));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.match(r.message, /not installed/);
    assert.match(r.fix, /python3 -m pip install puppet-ls/);
    assert.match(r.fix, /puppet-ls\.server\.path/);
    assert.equal(r.installCommand, 'python3 -m pip install puppet-ls');
  }
});

test('a wrong server.path is reported as such, not silently replaced by PATH', () => {
  const r = resolveServer({ ...none, path: '/nope/puppet-ls' }, probe(['/opt/venv/bin/puppet-ls']));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /"puppet-ls.server.path" is "\/nope\/puppet-ls", which is not an executable file\./);
});

test('a missing pythonPath interpreter is reported', () => {
  const r = resolveServer({ ...none, pythonPath: '/nope/python' }, probe([]));
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /pythonPath.*was not found/);
});

test('a Python without puppet-ls gets a pip command for that Python', () => {
  const e = explainPythonProbe('/usr/bin/python3', "Traceback...\nModuleNotFoundError: No module named 'puppet_ls'\n");
  assert.match(e.message, /not installed for the Python/);
  assert.equal(e.installCommand, '/usr/bin/python3 -m pip install puppet-ls');
});
