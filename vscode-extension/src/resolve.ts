// Decides how to start puppet-ls from the user's settings (which executable, which arguments,
// which Python runs the copy bundled in the extension) and, when there is nothing to start, what
// to tell the user and how to fix it.
// Pure: no `vscode` import, so the unit tests run it under plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface ServerSettings {
  /** puppet-ls.server.path: the puppet-ls executable ('' = find it) */
  path: string;
  /** puppet-ls.server.pythonPath: the Python to run the server with ('' = find one) */
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

/** How to start the server: a command line, and for the bundled copy the PYTHONPATH it needs. */
export interface Launch {
  command: string;
  args: string[];
  /** where the server comes from, for the output channel and the status item */
  how: string;
  /** the bundled libraries, to put first on PYTHONPATH; undefined for the user's own install */
  pythonPath?: string;
}

/** A Python interpreter to try: a command and the arguments that come before `-m` (`py -3`). */
export interface PythonCandidate {
  command: string;
  prefix: string[];
  /** what the user would call it in a message: "python3", "the Python extension's interpreter" */
  label: string;
}

export interface Problem {
  message: string;
  fix: string;
  /** the one action the message offers besides "Show Output" */
  action: 'openSettings' | 'getPython';
}

/**
 * What resolveServer decided: start a command (`run`), try Python interpreters in order and start
 * the server module with the first that is new enough (`python`), or tell the user (`problem`).
 */
export type Resolution =
  | { kind: 'run'; launch: Launch }
  | { kind: 'python'; candidates: PythonCandidate[]; explicit: boolean; bundled?: string }
  | { kind: 'problem'; problem: Problem };

export const PYTHON_MODULE = 'puppet_ls.server.cli';
export const MIN_PYTHON: readonly [number, number] = [3, 10];
export const GET_PYTHON_URL = 'https://www.python.org/downloads/';
/**
 * Run as `python -c PYTHON_PROBE [import]` by each candidate: prints its version and, with the
 * argument, whether puppet-ls is installed for it (only asked of "puppet-ls.server.pythonPath").
 */
export const PYTHON_PROBE =
  'import sys\nprint("%d.%d.%d" % sys.version_info[:3])\nif len(sys.argv) > 1:\n' +
  `    try:\n        import ${PYTHON_MODULE}\n        print("installed")\n    except Exception as e:\n        print("absent", type(e).__name__, e)\n`;

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

function exeNames(name: string, platform: string): string[] {
  return platform === 'win32' ? [name + '.exe', name + '.cmd', name] : [name];
}

/** Path joining of the probed platform (so that the tests of Windows paths run anywhere). */
function join(probe: Probe, ...parts: string[]): string {
  return (probe.platform === 'win32' ? path.win32 : path.posix).join(...parts);
}

/** The first executable called `name` on PATH, or undefined. */
export function which(name: string, probe: Probe): string | undefined {
  const sep = probe.platform === 'win32' ? ';' : ':';
  const dirs = (probe.env.PATH ?? probe.env.Path ?? '').split(sep).filter(Boolean);
  for (const dir of dirs) {
    for (const n of exeNames(name, probe.platform)) {
      const candidate = join(probe, dir, n);
      if (probe.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Where `pip install --user` and pipx put console scripts; GUI-started editors often lack them on PATH. */
function userScriptDirs(probe: Probe): string[] {
  if (probe.platform === 'win32') {
    const appdata = probe.env.APPDATA;
    return appdata ? [join(probe, appdata, 'Python', 'Scripts')] : [];
  }
  return [join(probe, probe.home, '.local', 'bin')];
}

/** An explicit command: a path (must be an executable file) or a bare name looked up on PATH. */
function locate(cmd: string, probe: Probe): string | undefined {
  const expanded = expandHome(cmd, probe.home);
  if (expanded.includes('/') || expanded.includes('\\')) {
    return probe.isExecutable(expanded) ? expanded : undefined;
  }
  return which(expanded, probe);
}

/**
 * The Pythons to try for the bundled server, in order: the Python extension's selected
 * interpreter, `python3` and `python` on PATH, and on Windows the `py -3` launcher.
 */
export function pythonCandidates(probe: Probe, selected?: string): PythonCandidate[] {
  const out: PythonCandidate[] = [];
  const seen = new Set<string>();
  const add = (command: string | undefined, prefix: string[], label: string) => {
    if (command && !seen.has(command + prefix.join(' '))) {
      seen.add(command + prefix.join(' '));
      out.push({ command, prefix, label });
    }
  };
  if (selected) add(locate(selected, probe), [], `the Python extension's interpreter (${selected})`);
  add(which('python3', probe), [], 'python3');
  add(which('python', probe), [], 'python');
  if (probe.platform === 'win32') add(which('py', probe), ['-3'], 'py -3');
  return out;
}

/**
 * Decides where the server comes from, in this order: "puppet-ls.server.path"; the Python of
 * "puppet-ls.server.pythonPath" (its own puppet-ls, else the bundled one); a `puppet-ls` the user
 * installed (PATH, pip's user scripts); the copy bundled in the extension (`bundled` = its
 * libraries folder, undefined when this build has none), run by a Python found on the machine.
 */
export function resolveServer(settings: ServerSettings, probe: Probe, bundled?: string, selectedPython?: string): Resolution {
  const extra = settings.args ?? [];
  const serverPath = (settings.path ?? '').trim();
  const pythonPath = (settings.pythonPath ?? '').trim();

  if (serverPath) {
    const found = locate(serverPath, probe);
    if (!found) {
      return {
        kind: 'problem',
        problem: {
          message: `The puppet-ls server was not found: "puppet-ls.server.path" is "${serverPath}", which is not an executable file${/[/\\]/.test(serverPath) ? '' : ' on PATH'}.`,
          fix: bundled
            ? 'Correct "puppet-ls.server.path", or clear it to use the server bundled with the extension.'
            : 'Correct "puppet-ls.server.path" (the output of `command -v puppet-ls`), or clear it.',
          action: 'openSettings',
        },
      };
    }
    return { kind: 'run', launch: { command: found, args: ['--stdio', ...extra], how: `puppet-ls.server.path (${found})` } };
  }

  if (pythonPath) {
    const found = locate(pythonPath, probe);
    if (!found) {
      return {
        kind: 'problem',
        problem: {
          message: `The Python interpreter in "puppet-ls.server.pythonPath" ("${pythonPath}") was not found.`,
          fix: 'Set "puppet-ls.server.pythonPath" to an existing interpreter (for example the output of `command -v python3`), or clear it.',
          action: 'openSettings',
        },
      };
    }
    return { kind: 'python', candidates: [{ command: found, prefix: [], label: `"puppet-ls.server.pythonPath" (${found})` }], explicit: true, bundled };
  }

  const onPath = which('puppet-ls', probe);
  if (onPath) return { kind: 'run', launch: { command: onPath, args: ['--stdio', ...extra], how: `PATH (${onPath})` } };
  for (const dir of userScriptDirs(probe)) {
    for (const n of exeNames('puppet-ls', probe.platform)) {
      const candidate = join(probe, dir, n);
      if (probe.isExecutable(candidate)) {
        return { kind: 'run', launch: { command: candidate, args: ['--stdio', ...extra], how: `pip user scripts (${candidate})` } };
      }
    }
  }
  if (bundled) return { kind: 'python', candidates: pythonCandidates(probe, selectedPython), explicit: false, bundled };
  return {
    kind: 'problem',
    problem: {
      message: 'The puppet-ls language server was not found: this build of the extension has none bundled, and there is no `puppet-ls` on PATH.',
      fix: 'Install the extension built by tools/release/build.sh (it bundles the server), or install puppet-ls from a checkout (`python3 -m pip install -e .` in it) and set "puppet-ls.server.path".',
      action: 'openSettings',
    },
  };
}

/** What one candidate answered to PYTHON_PROBE: its version, and whether it has puppet-ls. */
export interface ProbeAnswer {
  version?: [number, number, number];
  installed: boolean;
  /** why it could not be used: not runnable, or the probe's error */
  error?: string;
}

export function parseProbe(stdout: string, error?: string): ProbeAnswer {
  const [first = '', second = ''] = stdout.split(/\r?\n/);
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(first.trim());
  if (!m) return { installed: false, error: error || `unexpected answer ${JSON.stringify(first)}` };
  return { version: [Number(m[1]), Number(m[2]), Number(m[3])], installed: second.trim() === 'installed' };
}

/** Whether a Python version can run puppet-ls (MIN_PYTHON or newer). */
export function newEnough(v: [number, number, number]): boolean {
  return v[0] > MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] >= MIN_PYTHON[1]);
}

/**
 * The launch for the first candidate that can run the server, given what each answered to
 * PYTHON_PROBE (in the same order), or the problem to tell the user when none can.
 */
export function choosePython(
  resolution: Extract<Resolution, { kind: 'python' }>,
  answers: ProbeAnswer[],
  extra: string[],
): { launch: Launch } | { problem: Problem } {
  const min = `${MIN_PYTHON[0]}.${MIN_PYTHON[1]}`;
  const tried: string[] = [];
  for (const [i, c] of resolution.candidates.entries()) {
    const a = answers[i];
    const args = [...c.prefix, '-m', PYTHON_MODULE, '--stdio', ...extra];
    const shown = [c.command, ...c.prefix].join(' ');
    if (!a?.version) {
      tried.push(`${c.label}: ${a?.error ?? 'not run'}`);
      continue;
    }
    const version = a.version.join('.');
    if (!newEnough(a.version)) {
      tried.push(`${c.label}: Python ${version}`);
      continue;
    }
    if (resolution.explicit && a.installed) {
      return { launch: { command: c.command, args, how: `${shown} -m ${PYTHON_MODULE} (Python ${version}, its own puppet-ls)` } };
    }
    if (resolution.bundled) {
      return { launch: { command: c.command, args, how: `bundled puppet-ls, run by ${shown} (Python ${version})`, pythonPath: resolution.bundled } };
    }
    return {
      problem: {
        message: `puppet-ls is not installed for the Python in "puppet-ls.server.pythonPath" (${c.command}), and this build of the extension has none bundled.`,
        fix: `Install it for that Python from a checkout (\`${c.command} -m pip install -e .\` in it), or point "puppet-ls.server.pythonPath" at the interpreter that has it.`,
        action: 'openSettings',
      },
    };
  }
  const where = tried.length ? ` (found: ${tried.join('; ')})` : ' (no python3 or python on PATH)';
  if (resolution.explicit) {
    return {
      problem: {
        message: `puppet-ls needs Python ${min} or newer; "puppet-ls.server.pythonPath" cannot run it${where}.`,
        fix: `Set "puppet-ls.server.pythonPath" to a Python ${min} or newer, or clear it to use one on PATH.`,
        action: 'openSettings',
      },
    };
  }
  return {
    problem: {
      message: `puppet-ls needs Python ${min} or newer, and none was found${where}.`,
      fix: `Install Python ${min} or newer (python.org or your package manager) and restart the server, or set "puppet-ls.server.pythonPath" to one.`,
      action: 'getPython',
    },
  };
}

/** The environment of a launch: the bundled libraries go first on PYTHONPATH. */
export function launchEnv(launch: Launch, env: Record<string, string | undefined>, platform: string): Record<string, string | undefined> {
  if (!launch.pythonPath) return env;
  const sep = platform === 'win32' ? ';' : ':';
  const old = env.PYTHONPATH;
  return { ...env, PYTHONPATH: old ? `${launch.pythonPath}${sep}${old}` : launch.pythonPath };
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
