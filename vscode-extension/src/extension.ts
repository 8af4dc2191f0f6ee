// The VS Code extension's entry point: starts puppet-ls over stdio with vscode-languageclient,
// keeps the status item in step with the server, restarts it when its settings change, and
// tells the user how to install the server when it is missing.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { SERVER_SECTIONS, serverSettings, settingsPayload } from './config';
import { explainPythonProbe, nodeProbe, PYTHON_MODULE, resolveServer, ServerSettings } from './resolve';
import { ServerState, ServerStatus } from './status';

const SECTION = 'puppet-ls';
const LANGUAGES = ['puppet', 'puppet-epp'];

let client: LanguageClient | undefined;
let status: ServerStatus;
let output: vscode.LogOutputChannel;
let lastError = '';

/** What the extension exports (used by the end-to-end test driver and by other extensions). */
export interface PuppetLsApi {
  readonly state: ServerState;
  readonly statusText: string;
  readonly serverInfo: { name: string; version?: string } | undefined;
  readonly lastError: string;
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

async function tellUser(message: string, fix: string, installCommand: string): Promise<void> {
  lastError = `${message} ${fix}`;
  output.appendLine(`[puppet-ls] ${message}\n[puppet-ls] Fix: ${fix}`);
  const choice = await vscode.window.showErrorMessage(`${message} ${fix}`, 'Copy Install Command', 'Open Settings', 'Show Output');
  if (choice === 'Copy Install Command') {
    await vscode.env.clipboard.writeText(installCommand);
  } else if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
  } else if (choice === 'Show Output') {
    output.show(true);
  }
}

/** `python -c "import puppet_ls.server.cli"`: '' when it imports, else its stderr. */
function probePython(python: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(python, ['-c', `import ${PYTHON_MODULE}`], { timeout: 20000 }, (err, _stdout, stderr) =>
      resolve(err ? stderr || String(err) : ''));
  });
}

async function start(): Promise<void> {
  lastError = '';
  status.set('starting');
  const settings = readSettings();
  const resolution = resolveServer(settings, nodeProbe());
  if (!resolution.ok) {
    status.set('missing', resolution.message);
    void tellUser(resolution.message, resolution.fix, resolution.installCommand);
    return;
  }
  if (resolution.args[0] === '-m') {
    const problem = await probePython(resolution.command);
    if (problem) {
      const e = explainPythonProbe(resolution.command, problem);
      status.set('missing', e.message);
      void tellUser(e.message, e.fix, e.installCommand);
      return;
    }
  }
  output.appendLine(`[puppet-ls] starting ${resolution.command} ${resolution.args.join(' ')} (from ${resolution.how})`);

  const serverOptions: ServerOptions = {
    run: { command: resolution.command, args: resolution.args },
    debug: { command: resolution.command, args: resolution.args },
  };
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
      status.set('running', info ? `${info.name}${info.version ? ' ' + info.version : ''}` : resolution.how);
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
    lastError = `puppet-ls could not be started (${resolution.command}): ${text}`;
    status.set('failed', lastError);
    void tellUser(`puppet-ls could not be started: ${text}.`, `Check "puppet-ls.server.path" / "puppet-ls.server.pythonPath", or reinstall with \`python3 -m pip install puppet-ls\`.`, 'python3 -m pip install puppet-ls');
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
    restart,
  };
}

export async function deactivate(): Promise<void> {
  await stop();
}
