"""Bolt in the editor: completion items for Bolt's functions and types in Bolt code, and for
task names and task parameters in ``run_task`` calls.

``completion.py`` calls these; what Bolt code is, and Bolt's names, come from ``check/bolt.py``
and ``knowledge/bolt.py``; tasks come from the index (``ide/tasks.py`` indexes their metadata).
"""
from __future__ import annotations

import re

from ..check import bolt
from ..check.analysis import Analysis
from ..check.tasks import call_task
from ..knowledge import bolt as knowledge
from ..syntax import ast as A
from ..syntax import kinds as K
from .tasks import task_markdown
from .tokens import enclosing_opener, token_at, token_before

_TASK_RUNNERS = frozenset({"run_task", "run_task_with"})

# run_task('<cursor>   /  run_task_with("mod::<cursor>
_TASK_NAME = re.compile(r"\b(run_task|run_task_with)\s*\(\s*(['\"])([\w:]*)$")


def function_items(an: Analysis, start: int, seen: set, method: bool, item) -> list:
    """Bolt's plan functions, in Bolt code (``item`` builds a completion item)."""
    if not bolt.is_bolt_code(an):
        return []
    out = []
    for name, f in knowledge.functions().items():
        if name in seen:
            continue
        seen.add(name)
        sigs = bolt.function_signatures(name) or []
        detail = sigs[0].label() + (f"  (+{len(sigs) - 1} more)" if len(sigs) > 1 else "") if sigs else name
        out.append(item(name, "function", detail, f.summary + "\n\n*Bolt plan function*", name,
                        name if method else f"{name}(${{1}})", start, sort_text="2" + name))
    if method:       # $result.<cursor>: the functions and attributes of Bolt's objects
        for name in sorted(knowledge.object_members() - seen):
            seen.add(name)
            member = bolt.method_markdown(name)
            out.append(item(name, "function", member[0].split("\n")[0] if member else "Bolt data type member",
                            member[0] if member else "", name, name, start, sort_text="1" + name))
    return out


def type_items(an: Analysis, start: int, seen: set, item) -> list:
    """Bolt's data types and aliases, in Bolt code."""
    if not bolt.is_bolt_code(an):
        return []
    out = []
    for name, t in knowledge.types().items():
        if name in seen:
            continue
        seen.add(name)
        out.append(item(name, "type", "Bolt data type" if t.kind == "object" else f"= {t.definition}"[:120],
                        t.summary, edit_start=start, sort_text="1" + name))
    return out


def task_items(an: Analysis, before: str, offset: int, item) -> list | None:
    """Task names inside ``run_task('``, or the parameters of the named task after its targets;
    None when the cursor is in neither place."""
    m = _TASK_NAME.search(before)
    if m:
        typed = m.group(3)
        out = []
        for e in _tasks(an):
            out.append(item(e.name, "task", "Bolt task", _task_doc(e), e.name, "", offset - len(typed),
                            sort_text="0" + e.name))
        return out
    call = _task_arguments(an, offset)
    if call is None:
        return None
    task_name, given, typed = call
    found = an.env.lookup("task", task_name.lower())
    if not found:
        return None
    out = []
    for p in found[0].params:
        if p.name in given:
            continue
        out.append(item(p.name, "attribute", p.type_text or "Any", found[0].extra.get("param_docs", {}).get(p.name, ""),
                        f"{p.name} => ", f"{p.name} => ${{1}}", offset - len(typed), sort_text="0" + p.name))
    return out


def _task_arguments(an: Analysis, offset: int) -> tuple[str, set, str] | None:
    """(task name, parameter names already given, the word being typed) when the cursor is
    where a parameter name goes in ``run_task('mod::task', $targets, …)`` (after the targets,
    at the start of an argument, on any line of the call); else None."""
    if "run_task" not in an.result.text:
        return None     # (the walk back to the opener costs more than completion itself)
    root = an.result.root
    opener, between = enclosing_opener(root, offset)
    if opener is not None and opener.kind == K.LBRACE:        # run_task('t', $x, { <cursor>
        outer, before_brace = enclosing_opener(root, opener.offset)
        if outer is None or outer.kind not in (K.LPAREN, K.WSLPAREN):
            return None
        opener, between = outer, before_brace + [opener] + between
    if opener is None or opener.kind not in (K.LPAREN, K.WSLPAREN):
        return None
    callee = token_before(root, opener)
    if callee is None or callee.text != "run_task" or not between or between[0].kind != K.STRING:
        return None
    typed = ""
    if between[-1].end >= offset and between[-1].kind == K.NAME:
        typed = between[-1].text                # the word being typed
        between = between[:-1]
    if not between or between[-1].kind not in (K.COMMA, K.LBRACE):
        return None
    # enclosing_opener leaves out what closed brackets hold: every comma left is the call's own
    commas, given = 0, set()
    for i, t in enumerate(between):
        if t.kind == K.COMMA:
            commas += 1
        elif t.kind == K.FARROW and i > 0:
            given.add(between[i - 1].text.strip("'\""))
    if commas < 2:
        return None                              # still the targets
    return between[0].text.strip("'\""), given, typed


def _tasks(an: Analysis) -> list:
    out = []
    for name in an.env.names("task"):
        out.extend(an.env.lookup("task", name)[:1])
    return out


def _task_doc(e) -> str:
    lines = [e.doc] if e.doc else []
    for p in e.params:
        d = e.extra.get("param_docs", {}).get(p.name, "")
        lines.append(f"* `{p.name}` ({p.type_text or 'Any'}{'' if p.has_default else ', required'})"
                     + (f": {d}" if d else ""))
    return "\n".join(lines)


def task_at(an: Analysis, tok):
    """The indexed task a string token names, when it is the task-name argument of a
    ``run_task``/``run_task_with`` call (for hover and go to definition)."""
    if tok is None or tok.kind not in (K.STRING, K.STRING_TEXT):
        return None
    lit = tok.parent
    node = lit
    for _ in range(4):
        if node is None or node.kind == K.CALL_EXPR:
            break
        node = node.parent
    if node is None or node.kind != K.CALL_EXPR or A.CallExpr(node).name not in _TASK_RUNNERS:
        return None
    task, first = call_task(an, node)
    if task is None or first is None or not (first.syntax.offset <= tok.offset < first.syntax.end):
        return None
    return task


def task_hover(an: Analysis, tok) -> tuple[str, int, int] | None:
    """(markdown, start, end) of the task a ``run_task`` string names."""
    task = task_at(an, tok)
    if task is None:
        return None
    return task_markdown(task), tok.offset, tok.end


def task_definition(an: Analysis, offset: int) -> str | None:
    """The metadata file of the task named at ``offset``."""
    task = task_at(an, token_at(an.result.root, offset))
    return task.path if task is not None else None
