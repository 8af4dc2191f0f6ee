// The fact-set switch and the catalog preview's document, the parts without VS Code: what the
// status item says for a value of "puppet-ls.previews.facts", the quick pick's entries (the
// server's built-in sets, "none" and "facts file…") and the setting a choice writes, and the
// name of the read-only document a catalog is shown in.  Pure, so the unit tests run it under
// plain Node.

/** A built-in fact set as the server's `puppet-ls.factSets` command describes it. */
export interface FactSet {
  name: string;
  description: string;
}

/** The answer of `puppet-ls.factSets`. */
export interface FactSets {
  current: string;
  sets: FactSet[];
}

/** One entry of the quick pick: `value` is what the setting becomes (undefined: ask for a file). */
export interface FactSetChoice {
  label: string;
  description: string;
  detail?: string;
  value: string | undefined;
  picked: boolean;
}

/** The scheme of the read-only documents catalogs are shown in. */
export const CATALOG_SCHEME = 'puppet-catalog';

/** The fact set's short name: a built-in set's name, or a facts file's base name; '' for none. */
export function factSetName(setting: string | undefined): string {
  const value = (setting ?? '').trim();
  if (!value) return '';
  const parts = value.split(/[\\/]/);
  return parts[parts.length - 1];
}

/** Text and tooltip of the status bar item for a value of "puppet-ls.previews.facts". */
export function factSetStatus(setting: string | undefined): { text: string; tooltip: string } {
  const name = factSetName(setting);
  if (!name) {
    return {
      text: '$(server-environment) no facts',
      tooltip: 'Puppet previews: no fact set (only what the file itself decides). Click to choose one.',
    };
  }
  return {
    text: `$(server-environment) ${name}`,
    tooltip: `Puppet previews use the facts of ${(setting ?? '').trim()}. Click to choose another fact set.`,
  };
}

/** The quick pick's entries: the built-in sets, no facts, and a facts file of the user's. */
export function factSetChoices(sets: FactSet[], current: string | undefined): FactSetChoice[] {
  const now = (current ?? '').trim();
  const builtin = sets.map((s) => s.name);
  const out: FactSetChoice[] = sets.map((s) => ({
    label: s.name,
    description: s.description,
    value: s.name,
    picked: s.name === now,
  }));
  out.push({ label: 'No facts', description: 'only what the file itself decides', value: '', picked: now === '' });
  const file = now && !builtin.includes(now);
  out.push({
    label: 'Facts file…',
    description: file ? now : 'the output of `facter --json` or `puppet facts` (JSON or YAML)',
    value: undefined,
    picked: Boolean(file),
  });
  return out;
}

/** The setting a chosen facts file is written as: relative to the workspace folder when inside it. */
export function factsFileSetting(file: string, workspaceFolder: string | undefined): string {
  if (workspaceFolder) {
    const root = workspaceFolder.replace(/[\\/]+$/, '');
    if (file.startsWith(root + '/') || file.startsWith(root + '\\')) return file.slice(root.length + 1);
  }
  return file;
}

/** The answer of `puppet-ls.previewCatalog`. */
export interface CatalogAnswer {
  ok: boolean;
  class?: string;
  facts?: string;
  title?: string;
  text?: string;
  error?: string;
}

/** The path of the read-only document a catalog is shown in: one per class and fact set, so
 * that previewing again replaces it, and the editor's tab says what it is. */
export function catalogPath(answer: CatalogAnswer): string {
  const cls = (answer.class ?? 'catalog').replace(/::/g, '__').replace(/[^\w.-]+/g, '_');
  const facts = (answer.facts ?? '').replace(/[^\w.-]+/g, '_');
  return `/${cls}${facts ? `.${facts}` : ''}.catalog`;
}
