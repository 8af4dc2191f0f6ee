"""Functions that need the outside world (files, templates on disk, processes, Hiera data).

They are declared with their signatures so that checking and completion know them, but in the
sandbox they refuse to run with a clear "not available in this context" error.
"""
from __future__ import annotations

from ..errors import EvalError
from ..registry import define
from ...messages import render

_SANDBOXED = {
    "file": "Reads the content of files from modules or absolute paths.",
    "template": "Evaluates ERB templates from modules.",
    "inline_template": "Evaluates an inline ERB (Ruby) template.",
    "epp": "Evaluates an EPP template from a module.",
    "generate": "Runs an external command and returns its output.",
    "lookup": "Looks up data with Hiera.",
    "hiera": "Looks up data with Hiera (deprecated).",
    "hiera_array": "Looks up an array with Hiera (deprecated).",
    "hiera_hash": "Looks up a hash with Hiera (deprecated).",
    "hiera_include": "Includes classes listed in Hiera (deprecated).",
    "find_file": "Finds a file in modules.",
    "find_template": "Finds a template in modules.",
    "binary_file": "Reads a file as Binary.",
    "module_directory": "The directory of a module.",
    "json_data": "A Hiera 5 data provider reading a JSON file.",
    "yaml_data": "A Hiera 5 data provider reading a YAML file.",
    "hocon_data": "A Hiera 5 data provider reading a HOCON file.",
    "eyaml_lookup_key": "A Hiera 5 lookup_key provider for encrypted YAML files.",
    "create_resources": "Creates resources from a hash (use iteration instead).",
}


def _refuse(name: str):
    def impl(c, *args):
        raise EvalError(render("FUNCTION_NOT_AVAILABLE_IN_THIS", name=name),
                        "NOT_AVAILABLE_IN_SANDBOX")
    return impl


for _name, _doc in _SANDBOXED.items():
    _f = define(_name, _doc)
    _f.sandboxed = False
    _f.dispatch("Any args*", block="Callable block?")(_refuse(_name))
