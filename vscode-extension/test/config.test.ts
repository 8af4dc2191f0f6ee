// Unit tests (node:test) for turning the extension's settings into the server's settings object.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverSettings, settingsPayload, SERVER_SETTING_KEYS } from '../src/config';
import * as manifest from '../package.json';

test('dotted keys become the nested object the server reads', () => {
  const values: Record<string, unknown> = { modulepath: ['/etc/puppet/modules'], 'diagnostics.enable': false, 'diagnostics.debounceMs': 100, 'log.level': 'debug' };
  assert.deepEqual(serverSettings((k) => values[k]), {
    modulepath: ['/etc/puppet/modules'],
    diagnostics: { enable: false, debounceMs: 100 },
    log: { level: 'debug' },
  });
});

test('the payload carries the settings under "puppet" and "puppet-ls"', () => {
  const p = settingsPayload((k) => (k === 'hover.values' ? false : undefined));
  assert.deepEqual(p, { puppet: { hover: { values: false } }, 'puppet-ls': { hover: { values: false } } });
});

test('every server setting is declared in package.json, and nothing client-only leaks to the server', () => {
  const declared = Object.keys(manifest.contributes.configuration.properties).map((k) => k.replace(/^puppet-ls\./, ''));
  for (const key of SERVER_SETTING_KEYS) assert.ok(declared.includes(key), `package.json lacks puppet-ls.${key}`);
  const clientOnly = declared.filter((k) => !(SERVER_SETTING_KEYS as readonly string[]).includes(k));
  assert.deepEqual(clientOnly.sort(), ['server.args', 'server.path', 'server.pythonPath', 'trace.server']);
});

test('puppet-ls.hiera.facts is deprecated in favour of the one fact set, puppet-ls.previews.facts', () => {
  const props = manifest.contributes.configuration.properties as Record<string, { markdownDeprecationMessage?: string }>;
  assert.match(props['puppet-ls.hiera.facts'].markdownDeprecationMessage ?? '', /#puppet-ls\.previews\.facts#/);
  assert.equal(props['puppet-ls.previews.facts'].markdownDeprecationMessage, undefined);
});
