// Unit tests (node:test) for how the extension finds the server: settings, PATH, pip's user
// folder, the bundled copy run by a Python found on the machine, and the messages with a fix
// when nothing can run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { choosePython, launchEnv, parseProbe, Probe, ProbeAnswer, pythonCandidates, resolveServer, Resolution } from '../src/resolve';

function probe(executables: string[], PATH = '/usr/bin:/opt/venv/bin', platform = 'linux'): Probe {
  const set = new Set(executables);
  return { isExecutable: (f) => set.has(f), env: { PATH }, platform, home: '/home/u' };
}
const none = { path: '', pythonPath: '', args: [] as string[] };
const LIBS = '/ext/bundled/libs';
const v = (s: string): ProbeAnswer => parseProbe(s);

function run(r: Resolution) {
  assert.equal(r.kind, 'run');
  return r.kind === 'run' ? r.launch : undefined;
}
function python(r: Resolution) {
  assert.equal(r.kind, 'python');
  if (r.kind !== 'python') throw new Error('not python');
  return r;
}

test("the user's own puppet-ls on PATH comes before the bundled copy", () => {
  const l = run(resolveServer(none, probe(['/opt/venv/bin/puppet-ls', '/usr/bin/python3']), LIBS));
  assert.deepEqual(l, { command: '/opt/venv/bin/puppet-ls', args: ['--stdio'], how: 'PATH (/opt/venv/bin/puppet-ls)' });
});

test("falls back to pip's user script folder", () => {
  assert.equal(run(resolveServer(none, probe(['/home/u/.local/bin/puppet-ls']), LIBS))?.command, '/home/u/.local/bin/puppet-ls');
});

test('an explicit server path wins, with ~ expanded and extra args appended', () => {
  const l = run(resolveServer({ path: '~/bin/puppet-ls', pythonPath: '/usr/bin/python3', args: ['--log-file', '/tmp/l'] },
    probe(['/home/u/bin/puppet-ls', '/usr/bin/python3', '/opt/venv/bin/puppet-ls']), LIBS));
  assert.deepEqual(l && [l.command, l.args, l.pythonPath], ['/home/u/bin/puppet-ls', ['--stdio', '--log-file', '/tmp/l'], undefined]);
});

test('a bare name in server.path is looked up on PATH', () => {
  assert.equal(run(resolveServer({ ...none, path: 'puppet-ls' }, probe(['/opt/venv/bin/puppet-ls'])))?.command, '/opt/venv/bin/puppet-ls');
});

test('nothing installed: the bundled copy, with the Python extension\'s interpreter, python3 and python to try in order', () => {
  const r = python(resolveServer(none, probe(['/usr/bin/python3', '/usr/bin/python', '/venv/bin/python']), LIBS, '/venv/bin/python'));
  assert.deepEqual(r.candidates.map((c) => c.command), ['/venv/bin/python', '/usr/bin/python3', '/usr/bin/python']);
  assert.equal(r.explicit, false);
  assert.equal(r.bundled, LIBS);
});

test('Windows: the py launcher is tried too, as `py -3`', () => {
  const cands = pythonCandidates(probe(['C:\\Windows\\py.exe'], 'C:\\Windows', 'win32'));
  assert.equal(cands.length, 1);
  assert.deepEqual(cands[0].prefix, ['-3']);
  const chosen = choosePython({ kind: 'python', candidates: cands, explicit: false, bundled: LIBS }, [v('3.12.1')], []);
  assert.ok('launch' in chosen);
  if ('launch' in chosen) assert.deepEqual(chosen.launch.args, ['-3', '-m', 'puppet_ls.server.cli', '--stdio']);
});

test('the first Python 3.10 or newer runs the bundled copy, with the libraries first on PYTHONPATH', () => {
  const r = python(resolveServer({ ...none, args: ['--log-file', '/tmp/l'] }, probe(['/usr/bin/python3', '/usr/bin/python']), LIBS));
  const chosen = choosePython(r, [v('3.8.10'), v('3.11.2')], ['--log-file', '/tmp/l']);
  assert.ok('launch' in chosen);
  if (!('launch' in chosen)) return;
  assert.deepEqual([chosen.launch.command, chosen.launch.args], ['/usr/bin/python', ['-m', 'puppet_ls.server.cli', '--stdio', '--log-file', '/tmp/l']]);
  assert.match(chosen.launch.how, /^bundled puppet-ls, run by \/usr\/bin\/python \(Python 3\.11\.2\)$/);
  assert.equal(launchEnv(chosen.launch, { PYTHONPATH: '/mine', HOME: '/h' }, 'linux').PYTHONPATH, `${LIBS}:/mine`);
  assert.equal(launchEnv(chosen.launch, {}, 'win32').PYTHONPATH, LIBS);
});

test('no Python 3.10 or newer: one message that says what was found, and "Get Python" as the action', () => {
  const r = python(resolveServer(none, probe(['/usr/bin/python3']), LIBS));
  const chosen = choosePython(r, [v('3.8.10')], []);
  assert.ok('problem' in chosen);
  if (!('problem' in chosen)) return;
  assert.equal(chosen.problem.message, 'puppet-ls needs Python 3.10 or newer, and none was found (found: python3: Python 3.8.10).');
  assert.match(chosen.problem.fix, /Install Python 3\.10 or newer/);
  assert.match(chosen.problem.fix, /puppet-ls\.server\.pythonPath/);
  assert.equal(chosen.problem.action, 'getPython');
});

test('no Python at all on PATH: the message says so', () => {
  const chosen = choosePython(python(resolveServer(none, probe([]), LIBS)), [], []);
  assert.ok('problem' in chosen && /none was found \(no python3 or python on PATH\)/.test(chosen.problem.message));
});

test('pythonPath: its own puppet-ls is preferred, else the bundled copy runs with it', () => {
  const r = python(resolveServer({ ...none, pythonPath: 'python3' }, probe(['/usr/bin/python3', '/opt/venv/bin/puppet-ls']), LIBS));
  assert.equal(r.explicit, true);
  assert.deepEqual(r.candidates.map((c) => c.command), ['/usr/bin/python3']);
  const own = choosePython(r, [v('3.12.0\ninstalled')], []);
  assert.ok('launch' in own && own.launch.pythonPath === undefined && /its own puppet-ls/.test(own.launch.how));
  const bundled = choosePython(r, [v('3.12.0\nabsent ModuleNotFoundError')], []);
  assert.ok('launch' in bundled && bundled.launch.pythonPath === LIBS);
});

test('pythonPath too old: the message points at that setting, not at installing Python', () => {
  const r = python(resolveServer({ ...none, pythonPath: '/usr/bin/python3' }, probe(['/usr/bin/python3']), LIBS));
  const chosen = choosePython(r, [v('3.9.2')], []);
  assert.ok('problem' in chosen && chosen.problem.action === 'openSettings' && /pythonPath/.test(chosen.problem.message));
});

test('a Python that does not run is reported with its error', () => {
  assert.deepEqual(parseProbe('', 'permission denied'), { installed: false, error: 'permission denied' });
  const r = python(resolveServer(none, probe(['/usr/bin/python3']), LIBS));
  const chosen = choosePython(r, [parseProbe('', 'permission denied')], []);
  assert.ok('problem' in chosen && chosen.problem.message.includes('python3: permission denied'));
});

test('a build without bundled libraries and nothing installed: says so, and never offers a command that fails', () => {
  const r = resolveServer(none, probe(['/usr/bin/python3']));
  assert.equal(r.kind, 'problem');
  if (r.kind !== 'problem') return;
  assert.match(r.problem.message, /has none bundled/);
  assert.doesNotMatch(r.problem.fix, /pip install puppet-ls/);
  assert.match(r.problem.fix, /pip install -e \./);
});

test('a wrong server.path is reported as such, not silently replaced by PATH or the bundled copy', () => {
  const r = resolveServer({ ...none, path: '/nope/puppet-ls' }, probe(['/opt/venv/bin/puppet-ls', '/usr/bin/python3']), LIBS);
  assert.equal(r.kind, 'problem');
  if (r.kind !== 'problem') return;
  assert.match(r.problem.message, /"puppet-ls.server.path" is "\/nope\/puppet-ls", which is not an executable file\./);
  assert.match(r.problem.fix, /clear it to use the server bundled with the extension/);
});

test('a missing pythonPath interpreter is reported', () => {
  const r = resolveServer({ ...none, pythonPath: '/nope/python' }, probe([]), LIBS);
  assert.ok(r.kind === 'problem' && /pythonPath.*was not found/.test(r.problem.message));
});
