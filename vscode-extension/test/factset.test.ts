// Unit tests (node:test) for the fact-set switch: the status item's text, the quick pick's
// entries and the setting they write, and the catalog document's name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogPath, factSetChoices, factSetName, factSetStatus, factsFileSetting } from '../src/factset';
import * as manifest from '../package.json';

const SETS = [
  { name: 'debian12', description: 'Debian 12.11 amd64' },
  { name: 'rhel9', description: 'RedHat 9.4 x86_64' },
];

test('the status item names the fact set, a file by its base name', () => {
  assert.equal(factSetStatus('debian12').text, '$(server-environment) debian12');
  assert.equal(factSetStatus(' rhel9 ').text, '$(server-environment) rhel9');
  assert.equal(factSetStatus('facts/web01.json').text, '$(server-environment) web01.json');
  assert.match(factSetStatus('facts/web01.json').tooltip, /facts of facts\/web01\.json\./);
  assert.equal(factSetStatus('').text, '$(server-environment) no facts');
  assert.equal(factSetStatus(undefined).text, '$(server-environment) no facts');
  assert.equal(factSetName('C:\\facts\\db.yaml'), 'db.yaml');
});

test('the quick pick offers the built-in sets, no facts and a facts file, the current one picked', () => {
  const items = factSetChoices(SETS, 'rhel9');
  assert.deepEqual(items.map((i) => [i.label, i.value, i.picked]), [
    ['debian12', 'debian12', false],
    ['rhel9', 'rhel9', true],
    ['No facts', '', false],
    ['Facts file…', undefined, false],
  ]);
  assert.equal(items[0].description, 'Debian 12.11 amd64');
  const file = factSetChoices(SETS, 'facts/web01.json');
  assert.deepEqual(file.filter((i) => i.picked).map((i) => [i.label, i.description]), [['Facts file…', 'facts/web01.json']]);
  assert.deepEqual(factSetChoices(SETS, '').filter((i) => i.picked).map((i) => i.label), ['No facts']);
  // without a server (no sets), the user can still choose a file or none
  assert.deepEqual(factSetChoices([], 'debian12').map((i) => [i.label, i.picked]), [['No facts', false], ['Facts file…', true]]);
});

test('a facts file inside the workspace is written relative to it', () => {
  assert.equal(factsFileSetting('/ws/facts/web01.json', '/ws'), 'facts/web01.json');
  assert.equal(factsFileSetting('/ws/facts/web01.json', '/ws/'), 'facts/web01.json');
  assert.equal(factsFileSetting('/other/web01.json', '/ws'), '/other/web01.json');
  assert.equal(factsFileSetting('/wsx/web01.json', '/ws'), '/wsx/web01.json');
  assert.equal(factsFileSetting('/ws/web01.json', undefined), '/ws/web01.json');
});

test('one catalog document per class and fact set', () => {
  assert.equal(catalogPath({ ok: true, class: 'apache::mod::ssl', facts: 'rhel9' }), '/apache__mod__ssl.rhel9.catalog');
  assert.equal(catalogPath({ ok: true, class: 'web', facts: 'my facts.json' }), '/web.my_facts.json.catalog');
  assert.equal(catalogPath({ ok: false }), '/catalog.catalog');
});

test('the fact-set switch is a contributed command', () => {
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command);
  assert.ok(commands.includes('puppet-ls.selectFactSet'));
});
