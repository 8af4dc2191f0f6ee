// The status bar item that shows the language server's state (starting, running, stopped,
// not installed, no Python to run it, failed) and opens the server's output when clicked.
import * as vscode from 'vscode';
import { MIN_PYTHON } from './resolve';

export type ServerState = 'starting' | 'running' | 'stopped' | 'missing' | 'noPython' | 'failed';

const LOOK: Record<ServerState, { icon: string; label: string }> = {
  starting: { icon: '$(loading~spin)', label: 'starting' },
  running: { icon: '$(check)', label: 'running' },
  stopped: { icon: '$(debug-stop)', label: 'stopped' },
  missing: { icon: '$(error)', label: 'not installed' },
  noPython: { icon: '$(error)', label: `needs Python ${MIN_PYTHON.join('.')} or newer` },
  failed: { icon: '$(error)', label: 'failed' },
};

export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private current: ServerState = 'stopped';
  private detail = '';

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem('puppet-ls.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'puppet-ls';
    this.item.command = command;
    this.set('stopped');
    this.item.show();
  }

  get state(): ServerState {
    return this.current;
  }

  get text(): string {
    return this.item.text;
  }

  set(state: ServerState, detail = ''): void {
    this.current = state;
    this.detail = detail;
    const look = LOOK[state];
    this.item.text = `${look.icon} puppet-ls`;
    const tooltip = new vscode.MarkdownString(`**puppet-ls**: ${look.label}${detail ? `\n\n${detail}` : ''}\n\nClick to show the server output.`);
    tooltip.isTrusted = false;
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      state === 'missing' || state === 'noPython' || state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.accessibilityInformation = { label: `puppet-ls ${look.label}${detail ? `: ${detail}` : ''}` };
  }

  get description(): string {
    return `${LOOK[this.current].label}${this.detail ? ` (${this.detail})` : ''}`;
  }

  dispose(): void {
    this.item.dispose();
  }
}
