"""Go to definition on a built-in function that a module also defines as a legacy function
(stdlib's 3.x `size.rb`, say): Puppet calls its own function, so there is nowhere to go —
the module's file is not the definition — while a namespaced module function still has one."""
from __future__ import annotations

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import hover, navigation
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.index import WorkspaceIndex, index_source

LEGACY_SIZE = """module Puppet::Parser::Functions
  newfunction(:size, :type => :rvalue, :doc => "Returns the number of elements (deprecated).") do |args|
    args[0].size
  end
end
"""
LEGACY_OWN = LEGACY_SIZE.replace(":size", ":legacy_only")
TEXT = "$n = size([1, 2])\n$m = legacy_only([1])\n"


def _analysis():
    env = WorkspaceIndex(complete=True)
    env.add(index_source("/m/stdlib/lib/puppet/parser/functions/size.rb", LEGACY_SIZE, "stdlib", "ruby3_function"))
    env.add(index_source("/m/stdlib/lib/puppet/parser/functions/legacy_only.rb", LEGACY_OWN, "stdlib", "ruby3_function"))
    return analyze(parse_for_path(TEXT, "/x/init.pp"), env)


def test_builtin_shadows_a_legacy_module_function():
    an = _analysis()
    at = TEXT.index("size(") + 1
    assert navigation.definition(an, at) == []
    h = hover.hover(an, at)
    assert h is not None and "deprecated" not in h.markdown and "size" in h.markdown


def test_a_legacy_function_of_its_own_has_its_file():
    an = _analysis()
    found = navigation.definition(an, TEXT.index("legacy_only(") + 1)
    assert [t.path for t in found] == ["/m/stdlib/lib/puppet/parser/functions/legacy_only.rb"]
