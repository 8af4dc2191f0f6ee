"""Hover and go to definition across the indexed workspace, where Puppet's own rules decide:
a built-in function that a module also defines as a legacy function (stdlib's 3.x `size.rb`)
is Puppet's, so there is nowhere to go, while a module's own legacy function has its file; a
top-scope variable of `manifests/site.pp` (or a node-scope one) is visible in every class."""
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


SITE = "$dns_servers = ['1.1.1.1']\nnode 'web01' {\n  $role = 'web'\n  include profile::base\n}\n"
CLASS = "class profile::base {\n  notice($dns_servers, $::dns_servers, $role, $nowhere)\n}\n"


def _site_analysis():
    env = WorkspaceIndex(complete=True)
    env.add(index_source("/r/manifests/site.pp", SITE, "", "site"))
    return analyze(parse_for_path(CLASS, "/r/site/profile/manifests/base.pp"), env)


def test_site_variables_are_known_in_classes():
    an = _site_analysis()
    cases = {"$dns_servers,": ("top-scope variable, set in `manifests/site.pp`", SITE.index("$dns")),
             "$::dns_servers": ("top-scope variable, set in `manifests/site.pp`", SITE.index("$dns")),
             "$role": ("node-scope variable of a node definition, set in `manifests/site.pp`", SITE.index("$role")),
             "$nowhere": ("not defined in this file", None)}
    for marker, (says, defined_at) in cases.items():
        at = CLASS.index(marker) + 2
        h = hover.hover(an, at)
        assert h is not None and h.markdown.endswith(says), (marker, h)
        found = [(t.path, t.start) for t in navigation.definition(an, at)]
        assert found == ([("/r/manifests/site.pp", defined_at)] if defined_at is not None else []), marker


LONG_DOC = ("# @summary A class with a long comment.\n#\n# Body text under the summary.\n#\n"
            + "".join(f"# @param p{i}\n#   Parameter {i}.\n" for i in range(400))
            + "class longdoc (\n" + "".join(f"  $p{i} = {i},\n" for i in range(400)) + ") {}\n")
USES = "include longdoc\nclass { 'longdoc': p399 => 1 }\n"


def test_docs_of_a_class_in_another_file():
    """The summary and the body text both show, and a comment of 1,200 lines is read whole
    (its last parameter keeps its doc)."""
    env = WorkspaceIndex(complete=True)
    env.add(index_source("/m/longdoc/manifests/init.pp", LONG_DOC, "longdoc", "manifest"))
    an = analyze(parse_for_path(USES, "/x/site.pp"), env)
    h = hover.hover(an, USES.index("longdoc") + 1)
    assert h is not None and "A class with a long comment." in h.markdown and "Body text under the summary." in h.markdown
    h = hover.hover(an, USES.index("p399") + 1)
    assert h is not None and "Parameter 399." in h.markdown, h
