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
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { SERVER_SECTIONS, serverSettings, settingsPayload } from './config';
import {
  CATALOG_SCHEME,
  CatalogAnswer,
  catalogPath,
  FactSets,
  factSetChoices,
  factSetStatus,
  factsFileSetting,
} from './factset';
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
let factSetItem: vscode.StatusBarItem;
// the texts of the read-only catalog documents (puppet-catalog:/<class>.<facts>.catalog)
const catalogs = new Map<string, string>();
const catalogChanged = new vscode.EventEmitter<vscode.Uri>();

/** What the extension exports (used by the end-to-end test driver and by other extensions). */
export interface PuppetLsApi {
  readonly state: ServerState;
  readonly statusText: string;
  readonly serverInfo: { name: string; version?: string } | undefined;
  readonly lastError: string;
  /** where the running server comes from, e.g. "bundled puppet-ls, run by /usr/bin/python3 (Python 3.11.2)" */
  readonly how: string;
  /** the fact-set status item's text, e.g. "$(server-environment) debian12" */
  readonly factSetText: string;
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
      // the catalog of the "Preview catalog" lens: asked for with show "client" and shown here,
      // in a read-only document beside the class (other editors get a file from the server)
      executeCommand: async (command, args, next) => {
        if (command !== 'puppet-ls.previewCatalog') return next(command, args);
        const asked = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? [{ ...args[0], show: 'client' }] : args;
        const answer = (await next(command, asked)) as CatalogAnswer | undefined;
        if (answer) await showCatalog(answer);
        return answer;
      },
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

/** Opens (or refreshes) the read-only document of a catalog preview beside the editor. */
async function showCatalog(answer: CatalogAnswer): Promise<void> {
  if (answer.text === undefined || answer.text === '') {
    if (answer.error) void vscode.window.showWarningMessage(`puppet-ls: ${answer.error}`);
    return;
  }
  const uri = vscode.Uri.from({ scheme: CATALOG_SCHEME, path: catalogPath(answer) });
  catalogs.set(uri.path, answer.text);
  catalogChanged.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: false });
  if (!answer.ok && answer.error) void vscode.window.showWarningMessage(`puppet-ls: ${answer.error}`);
}

function updateFactSetItem(): void {
  const look = factSetStatus(vscode.workspace.getConfiguration(SECTION).get<string>('previews.facts', ''));
  factSetItem.text = look.text;
  factSetItem.tooltip = look.tooltip;
  factSetItem.accessibilityInformation = { label: look.tooltip };
  const lang = vscode.window.activeTextEditor?.document.languageId;
  if (lang !== undefined && LANGUAGES.includes(lang)) factSetItem.show();
  else factSetItem.hide();
}

/** The server's built-in fact sets (none when it is not running: a facts file can still be chosen). */
async function serverFactSets(): Promise<FactSets> {
  const c = client;
  if (c?.isRunning()) {
    try {
      const answer = await c.sendRequest(ExecuteCommandRequest.type, { command: 'puppet-ls.factSets', arguments: [] });
      if (answer && Array.isArray(answer.sets)) return answer as FactSets;
    } catch (err) {
      output.appendLine(`[puppet-ls] the fact sets could not be read: ${String(err)}`);
    }
  }
  return { current: '', sets: [] };
}

/** puppet-ls.selectFactSet: choose the fact set previews use (a quick pick, or the name given
 * as argument, e.g. from a key binding), written to "puppet-ls.previews.facts". */
async function selectFactSet(given?: unknown): Promise<string | undefined> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const current = cfg.get<string>('previews.facts', '');
  let value: string | undefined;
  if (typeof given === 'string') {
    value = given;
  } else {
    const { sets } = await serverFactSets();
    const choice = await vscode.window.showQuickPick(factSetChoices(sets, current), {
      title: 'Fact set for Puppet previews and catalogs',
      placeHolder: `now: ${current || 'no facts'}`,
    });
    if (!choice) return undefined;
    value = choice.value;
    if (value === undefined) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const files = await vscode.window.showOpenDialog({
        canSelectMany: false,
        defaultUri: folder,
        openLabel: 'Use these facts',
        filters: { 'Facts (JSON, YAML)': ['json', 'yaml', 'yml'], 'All files': ['*'] },
      });
      if (!files?.length) return undefined;
      value = factsFileSetting(files[0].fsPath, folder?.fsPath);
    }
  }
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg.update('previews.facts', value, target);
  return value;
}

export async function activate(context: vscode.ExtensionContext): Promise<PuppetLsApi> {
  output = vscode.window.createOutputChannel('puppet-ls', { log: true });
  bundledLibs = findBundled(context);
  status = new ServerStatus('puppet-ls.showOutput');
  factSetItem = vscode.window.createStatusBarItem('puppet-ls.factSet', vscode.StatusBarAlignment.Right, 99);
  factSetItem.name = 'Puppet fact set';
  factSetItem.command = 'puppet-ls.selectFactSet';
  updateFactSetItem();
  context.subscriptions.push(
    output,
    status,
    factSetItem,
    catalogChanged,
    vscode.workspace.registerTextDocumentContentProvider(CATALOG_SCHEME, {
      onDidChange: catalogChanged.event,
      provideTextDocumentContent: (uri) => catalogs.get(uri.path) ?? '',
    }),
    vscode.commands.registerCommand('puppet-ls.restartServer', restart),
    vscode.commands.registerCommand('puppet-ls.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('puppet-ls.selectFactSet', selectFactSet),
    vscode.window.onDidChangeActiveTextEditor(updateFactSetItem),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.previews.facts`)) updateFactSetItem();
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
    get factSetText() {
      return factSetItem.text;
    },
    restart,
  };
}

export async function deactivate(): Promise<void> {
  await stop();
}
