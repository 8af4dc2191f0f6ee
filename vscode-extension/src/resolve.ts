// Decides how to start puppet-ls from the user's settings (which executable, which arguments)
// and, when there is nothing to start, what to tell the user and how to fix it.
// Pure: no `vscode` import, so the unit tests run it under plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface ServerSettings {
  /** puppet-ls.server.path: the puppet-ls executable ('' = find it) */
  path: string;
  /** puppet-ls.server.pythonPath: a Python that has puppet-ls installed ('' = not used) */
  pythonPath: string;
  /** puppet-ls.server.args: extra arguments after --stdio */
  args: string[];
}

/** What resolution may look at; the real one is nodeProbe() below, tests pass fakes. */
export interface Probe {
  isExecutable(file: string): boolean;
  env: Record<string, string | undefined>;
  platform: string;
  home: string;
}

export type Resolution =
  | { ok: true; command: string; args: string[]; how: string }
  | { ok: false; message: string; fix: string; installCommand: string };

export const PYTHON_MODULE = 'puppet_ls.server.cli';
export const INSTALL_COMMAND = 'python3 -m pip install puppet-ls';

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

function exeNames(name: string, platform: string): string[] {
  return platform === 'win32' ? [name + '.exe', name + '.cmd', name] : [name];
}

/** The first executable called `name` on PATH, or undefined. */
export function which(name: string, probe: Probe): string | undefined {
  const sep = probe.platform === 'win32' ? ';' : ':';
  const dirs = (probe.env.PATH ?? probe.env.Path ?? '').split(sep).filter(Boolean);
  for (const dir of dirs) {
    for (const n of exeNames(name, probe.platform)) {
      const candidate = path.join(dir, n);
      if (probe.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Where `pip install --user` and pipx put console scripts; GUI-started editors often lack them on PATH. */
function userScriptDirs(probe: Probe): string[] {
  if (probe.platform === 'win32') {
    const appdata = probe.env.APPDATA;
    return appdata ? [path.join(appdata, 'Python', 'Scripts')] : [];
  }
  return [path.join(probe.home, '.local', 'bin')];
}

/** An explicit command: a path (must be an executable file) or a bare name looked up on PATH. */
function locate(cmd: string, probe: Probe): string | undefined {
  const expanded = expandHome(cmd, probe.home);
  if (expanded.includes('/') || expanded.includes('\\')) {
    return probe.isExecutable(expanded) ? expanded : undefined;
  }
  return which(expanded, probe);
}

const FIX_ANY =
  `Install it with \`${INSTALL_COMMAND}\`, or set "puppet-ls.server.path" to the puppet-ls executable, ` +
  'or "puppet-ls.server.pythonPath" to a Python interpreter that has puppet-ls installed.';

export function resolveServer(settings: ServerSettings, probe: Probe): Resolution {
  const extra = settings.args ?? [];
  const serverPath = (settings.path ?? '').trim();
  const pythonPath = (settings.pythonPath ?? '').trim();

  if (serverPath) {
    const found = locate(serverPath, probe);
    if (!found) {
      return {
        ok: false,
        message: `The puppet-ls server was not found: "puppet-ls.server.path" is "${serverPath}", which is not an executable file${serverPath.includes('/') ? '' : ' on PATH'}.`,
        fix: `Correct "puppet-ls.server.path" (the output of \`command -v puppet-ls\`), or clear it and install the server with \`${INSTALL_COMMAND}\`.`,
        installCommand: INSTALL_COMMAND,
      };
    }
    return { ok: true, command: found, args: ['--stdio', ...extra], how: `puppet-ls.server.path (${found})` };
  }

  if (pythonPath) {
    const found = locate(pythonPath, probe);
    if (!found) {
      return {
        ok: false,
        message: `The Python interpreter in "puppet-ls.server.pythonPath" ("${pythonPath}") was not found.`,
        fix: 'Set "puppet-ls.server.pythonPath" to an existing interpreter (for example the output of `command -v python3`), or clear it to use the puppet-ls executable on PATH.',
        installCommand: `${pythonPath} -m pip install puppet-ls`,
      };
    }
    return { ok: true, command: found, args: ['-m', PYTHON_MODULE, '--stdio', ...extra], how: `${found} -m ${PYTHON_MODULE}` };
  }

  const onPath = which('puppet-ls', probe);
  if (onPath) return { ok: true, command: onPath, args: ['--stdio', ...extra], how: `PATH (${onPath})` };
  for (const dir of userScriptDirs(probe)) {
    for (const n of exeNames('puppet-ls', probe.platform)) {
      const candidate = path.join(dir, n);
      if (probe.isExecutable(candidate)) {
        return { ok: true, command: candidate, args: ['--stdio', ...extra], how: `pip user scripts (${candidate})` };
      }
    }
  }
  return {
    ok: false,
    message: 'The puppet-ls language server is not installed: there is no `puppet-ls` on PATH.',
    fix: FIX_ANY,
    installCommand: INSTALL_COMMAND,
  };
}

/** Turns the output of a failed `python -c "import puppet_ls.server.cli"` into a message. */
export function explainPythonProbe(python: string, stderr: string): { message: string; fix: string; installCommand: string } {
  const missing = /No module named '?puppet_ls/.test(stderr);
  return {
    message: missing
      ? `puppet-ls is not installed for the Python in "puppet-ls.server.pythonPath" (${python}).`
      : `The Python in "puppet-ls.server.pythonPath" (${python}) cannot load puppet-ls: ${stderr.trim().split('\n').pop() ?? ''}`,
    fix: `Run \`${python} -m pip install puppet-ls\`, or point "puppet-ls.server.pythonPath" at the interpreter that has it.`,
    installCommand: `${python} -m pip install puppet-ls`,
  };
}

export function nodeProbe(): Probe {
  return {
    isExecutable(file: string): boolean {
      try {
        if (!fs.statSync(file).isFile()) return false;
        fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    env: process.env,
    platform: process.platform,
    home: os.homedir(),
  };
}
