// The VS Code extension's entry point: starts puppet-ls over stdio with vscode-languageclient,
// keeps the status item in step with the server, restarts it when its settings change, runs the
// copy of puppet-ls bundled in the extension with a Python found on the machine when the user has
// not installed or configured one, and tells the user what to do when there is nothing to run.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { SERVER_SECTIONS, serverSettings, settingsPayload } from './config';
import {
  choosePython,
  GET_PYTHON_URL,
  launchEnv,
  newEnough,
  nodeProbe,
  parseProbe,
  Problem,
  PYTHON_PROBE,
  ProbeAnswer,
  PythonCandidate,
  resolveServer,
  ServerSettings,
} from './resolve';
import { ServerState, ServerStatus } from './status';

const SECTION = 'puppet-ls';
const LANGUAGES = ['puppet', 'puppet-epp'];

let client: LanguageClient | undefined;
let status: ServerStatus;
let output: vscode.LogOutputChannel;
let lastError = '';
let launchedHow = '';
let bundledLibs: string | undefined;

/** What the extension exports (used by the end-to-end test driver and by other extensions). */
export interface PuppetLsApi {
  readonly state: ServerState;
  readonly statusText: string;
  readonly serverInfo: { name: string; version?: string } | undefined;
  readonly lastError: string;
  /** where the running server comes from, e.g. "bundled puppet-ls, run by /usr/bin/python3 (Python 3.11.2)" */
  readonly how: string;
  restart(): Promise<void>;
}

function configGetter(scope?: vscode.Uri): (key: string) => unknown {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  // only what the user set: the server has its own defaults for the rest
  return (key) => {
    const seen = cfg.inspect(key);
    const set = seen && [seen.workspaceFolderValue, seen.workspaceValue, seen.globalValue].some((v) => v !== undefined);
    return set ? cfg.get(key) : undefined;
  };
}

function readSettings(): ServerSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return {
    path: cfg.get<string>('server.path', ''),
    pythonPath: cfg.get<string>('server.pythonPath', ''),
    args: cfg.get<string[]>('server.args', []),
  };
}

async function tellUser(problem: Problem): Promise<void> {
  const { message, fix, action } = problem;
  lastError = `${message} ${fix}`;
  output.appendLine(`[puppet-ls] ${message}\n[puppet-ls] Fix: ${fix}`);
  const first = action === 'getPython' ? 'Get Python' : 'Open Settings';
  const choice = await vscode.window.showErrorMessage(`${message} ${fix}`, first, 'Show Output');
  if (choice === 'Get Python') {
    await vscode.env.openExternal(vscode.Uri.parse(GET_PYTHON_URL));
  } else if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
  } else if (choice === 'Show Output') {
    output.show(true);
  }
}

/** Runs PYTHON_PROBE with one candidate interpreter. */
function probePython(c: PythonCandidate, askInstalled: boolean): Promise<ProbeAnswer> {
  const args = [...c.prefix, '-c', PYTHON_PROBE, ...(askInstalled ? ['import'] : [])];
  return new Promise((resolve) => {
    execFile(c.command, args, { timeout: 20000 }, (err, stdout, stderr) =>
      resolve(parseProbe(String(stdout), err ? (String(stderr).trim().split('\n').pop() || err.message) : undefined)));
  });
}

/** The interpreter selected in the Python extension (ms-python.python), when it is installed. */
async function selectedPython(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension('ms-python.python');
  if (!ext) return undefined;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const environments = api?.environments;
    const active = environments?.getActiveEnvironmentPath?.(vscode.workspace.workspaceFolders?.[0]?.uri);
    if (!active?.path) return undefined;
    const resolved = await environments.resolveEnvironment?.(active);
    return resolved?.executable?.uri?.fsPath ?? active.path;
  } catch (err) {
    output.appendLine(`[puppet-ls] the Python extension's interpreter is not available: ${String(err)}`);
    return undefined;
  }
}

/** The bundled libraries (bundled/libs, put there by tools/release/build.sh), if this build has them. */
function findBundled(context: vscode.ExtensionContext): string | undefined {
  const libs = path.join(context.extensionPath, 'bundled', 'libs');
  return fs.existsSync(path.join(libs, 'puppet_ls', 'server', 'cli.py')) ? libs : undefined;
}

async function start(): Promise<void> {
  lastError = '';
  launchedHow = '';
  status.set('starting');
  const settings = readSettings();
  const probe = nodeProbe();
  let resolution = resolveServer(settings, probe, bundledLibs);
  if (resolution.kind === 'python' && !resolution.explicit) {
    // only now ask the Python extension (activating it costs time): its interpreter comes first
    const selected = await selectedPython();
    if (selected) resolution = resolveServer(settings, probe, bundledLibs, selected);
  }
  let launch;
  if (resolution.kind === 'problem') {
    status.set(resolution.problem.action === 'getPython' ? 'noPython' : 'missing', resolution.problem.message);
    void tellUser(resolution.problem);
    return;
  } else if (resolution.kind === 'python') {
    // one candidate at a time: the first Python that is new enough is the one
    const answers: ProbeAnswer[] = [];
    for (const c of resolution.candidates) {
      const a = await probePython(c, resolution.explicit);
      answers.push(a);
      output.appendLine(`[puppet-ls] Python candidate ${c.label}: ${a.version ? a.version.join('.') + (a.installed ? ', has puppet-ls' : '') : a.error}`);
      if (a.version && newEnough(a.version)) break;
    }
    const chosen = choosePython(resolution, answers, settings.args ?? []);
    if ('problem' in chosen) {
      status.set(chosen.problem.action === 'getPython' ? 'noPython' : 'missing', chosen.problem.message);
      void tellUser(chosen.problem);
      return;
    }
    launch = chosen.launch;
  } else {
    launch = resolution.launch;
  }
  launchedHow = launch.how;
  output.appendLine(`[puppet-ls] starting ${launch.command} ${launch.args.join(' ')} (from ${launch.how})`);

  const env = launchEnv(launch, process.env, process.platform);
  const executable = { command: launch.command, args: launch.args, options: { env } };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    outputChannel: output,
    initializationOptions: settingsPayload(configGetter()),
    middleware: {
      workspace: {
        // the server pulls its settings with workspace/configuration (section "puppet"):
        // answer from the puppet-ls.* settings of the resource asked about
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return params.items.map((item, i) =>
            item.section !== undefined && SERVER_SECTIONS.includes(item.section)
              ? serverSettings(configGetter(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined))
              : answers[i]);
        },
      },
    },
  };
  const c = new LanguageClient(SECTION, 'Puppet Language Server (puppet-ls)', serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (client !== c) return;
    if (e.newState === State.Running) {
      const info = c.initializeResult?.serverInfo;
      status.set('running', `${info ? `${info.name}${info.version ? ' ' + info.version : ''}, ` : ''}${launch.how}`);
    } else if (e.newState === State.Starting) {
      status.set('starting');
    } else {
      status.set(lastError ? 'failed' : 'stopped', lastError);
    }
  });
  try {
    await c.start();
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    status.set('failed', `puppet-ls could not be started (${launch.command}): ${text}`);
    void tellUser({
      message: `puppet-ls could not be started (${launch.how}): ${text}.`,
      fix: 'See the output for the server\'s own message, and check "puppet-ls.server.path" and "puppet-ls.server.pythonPath".',
      action: 'openSettings',
    });
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch (err) {
      output.appendLine(`[puppet-ls] stopping the server failed: ${String(err)}`);
    }
    await c.dispose();
  }
  status.set('stopped');
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<PuppetLsApi> {
  output = vscode.window.createOutputChannel('puppet-ls', { log: true });
  bundledLibs = findBundled(context);
  status = new ServerStatus('puppet-ls.showOutput');
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('puppet-ls.restartServer', restart),
    vscode.commands.registerCommand('puppet-ls.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.server`)) {
        void restart();
      } else if (e.affectsConfiguration(SECTION) && client?.isRunning()) {
        void client.sendNotification(DidChangeConfigurationNotification.type, { settings: settingsPayload(configGetter()) });
      }
    }),
  );
  await start();
  return {
    get state() {
      return status.state;
    },
    get statusText() {
      return status.text;
    },
    get serverInfo() {
      return client?.initializeResult?.serverInfo;
    },
    get lastError() {
      return lastError;
    },
    get how() {
      return launchedHow;
    },
    restart,
  };
}

export async function deactivate(): Promise<void> {
  await stop();
}
