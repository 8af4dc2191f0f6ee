// Maps the extension's `puppet-ls.*` settings to the JSON object that puppet-ls reads: the same
// keys (modulepath, diagnostics.enable, ...) nested as the server expects them, without the
// client-only ones (server.*, trace.*).  Pure, so the unit tests run it under plain Node.

/** The server's settings, as dotted keys under `puppet-ls.` in VS Code (see docs/server.md). */
export const SERVER_SETTING_KEYS = [
  'modulepath',
  'index.enable',
  'index.maxFiles',
  'index.cache',
  'index.cacheDir',
  'diagnostics.enable',
  'diagnostics.debounceMs',
  'previews.enable',
  'previews.maxSteps',
  'previews.timeoutMs',
  'previews.memoryMb',
  'previews.facts',
  'previews.node',
  'previews.externalFacts',
  'hiera.facts',
  'hiera.globalConfig',
  'documents.maxSize',
  'hover.values',
  'completion.snippets',
  'log.level',
] as const;

/** workspace/configuration sections answered with these settings: the server asks for
 * "puppet"; "puppet-ls" is the extension's own name for the same settings. */
export const SERVER_SECTIONS = ['puppet', 'puppet-ls'];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The nested settings object from a getter of dotted keys; unset keys are left out, so the
 * server uses its own defaults for them. */
export function serverSettings(get: (key: string) => unknown): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const key of SERVER_SETTING_KEYS) {
    const value = get(key);
    if (value === undefined) continue;
    const parts = key.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof node[p] !== 'object' || node[p] === null || Array.isArray(node[p])) node[p] = {};
      node = node[p] as { [key: string]: Json };
    }
    node[parts[parts.length - 1]] = value as Json;
  }
  return out;
}

/** The payload of workspace/didChangeConfiguration and of initializationOptions: the settings
 * under each section name the server may look for. */
export function settingsPayload(get: (key: string) => unknown): { [section: string]: Json } {
  const settings = serverSettings(get);
  return Object.fromEntries(SERVER_SECTIONS.map((s) => [s, settings]));
}
