"""TEST-DATA CONVERTER, NOT A PUPPET PARSER. To be replaced by the real parser's glue.

Run once to turn the type-system cases of ../shared/conformance/cases.jsonl (written as Puppet
expressions such as ``Integer[1,2] =~ Type[Integer]``) into fixtures/types/conformance.jsonl,
where each case holds a JSON "term" the tests can evaluate against the type API without any
parser. The reader below deliberately understands ONLY the literal / type-reference subset
these cases use: numbers, strings, regexps, true/false/undef/default, arrays, hashes, bare
words, ``Name[args]`` type references, ``Name(args)`` calls and one binary operator
(=~ !~ == != < <= > >=). Anything else is recorded as unconverted.

Term encoding (JSON): ints/strings/bools/null as themselves, ``{"f": "1.5"}`` a float,
``{"re": src}`` a regexp, ``{"default": 1}``, ``{"hash": [[k, v], ...]}``, lists as arrays,
``{"T": name, "args": [...]}`` a type reference (no "args" key: bare), ``{"call": name,
"args": [...]}`` a function call, ``{"op": op, "l": term, "r": term}`` a binary operation.

Usage: python tests/types/convert_conformance.py [CASES.jsonl] [OUT.jsonl]
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

CATEGORIES = ("type_assignability", "type_instance", "type_comparison", "type_parameterization",
              "type_formatter", "type_inference", "type_iterable")

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<float>\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
  | (?P<int>0x[0-9a-fA-F]+|\d+)
  | (?P<sq>'(?:[^'\\]|\\.)*')
  | (?P<dq>"(?:[^"\\]|\\.)*")
  | (?P<op>=~|!~|==|!=|<=|>=|=>|<|>)
  | (?P<name>(?:::)?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<punct>[\[\](){},.\-])
  | (?P<re>/(?:[^/\\\n]|\\.)*/)
""", re.VERBOSE)


class Unsupported(Exception):
    pass


def tokenize(src: str) -> list:
    out = []
    pos = 0
    prev = None
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise Unsupported(f"cannot read at {pos}: {src[pos:pos + 10]!r}")
        kind = m.lastgroup
        text = m.group()
        # a '/' after an operand would be division, which this subset does not have
        if kind == "re" and prev in ("int", "float", "name", ")", "]"):
            raise Unsupported("division")
        if kind != "ws":
            out.append((kind if kind != "punct" else text, text))
            prev = kind if kind != "punct" else text
        pos = m.end()
    out.append(("eof", ""))
    return out


def _unquote_single(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\([\\'])", r"\1", body)


def _unquote_double(text: str) -> str:
    body = text[1:-1]
    if "$" in body:
        raise Unsupported("interpolation")
    esc = {"n": "\n", "t": "\t", "r": "\r", "s": " ", "\\": "\\", '"': '"', "'": "'", "$": "$"}
    return re.sub(r"\\(.)", lambda m: esc.get(m.group(1), "\\" + m.group(1)), body)


class Reader:
    def __init__(self, src: str):
        self.toks = tokenize(src)
        self.i = 0

    def peek(self, k: int = 0):
        return self.toks[self.i + k]

    def take(self, kind: str | None = None):
        tok = self.toks[self.i]
        if kind is not None and tok[0] != kind:
            raise Unsupported(f"expected {kind}, got {tok}")
        self.i += 1
        return tok

    def read(self):
        left = self.primary()
        if self.peek()[0] == "op" and self.peek()[1] != "=>":
            op = self.take()[1]
            right = self.primary()
            left = {"op": op, "l": left, "r": right}
        if self.peek()[0] != "eof":
            raise Unsupported(f"trailing {self.peek()}")
        return left

    def args(self, close: str) -> list:
        out = []
        while self.peek()[0] != close:
            out.append(self.primary())
            if self.peek()[0] == ",":
                self.take()
            elif self.peek()[0] != close:
                raise Unsupported(f"expected , or {close}")
        self.take(close)
        return out

    def primary(self):
        kind, text = self.take()
        if kind == "-":
            k2, t2 = self.take()
            if k2 == "int":
                return -int(t2, 0)
            if k2 == "float":
                return {"f": "-" + t2}
            raise Unsupported("unary minus on non-number")
        if kind == "int":
            return int(text, 0)
        if kind == "float":
            return {"f": text}
        if kind == "sq":
            return _unquote_single(text)
        if kind == "dq":
            return _unquote_double(text)
        if kind == "re":
            return {"re": text[1:-1].replace("\\/", "/")}
        if kind == "[":
            return self.args("]")
        if kind == "{":
            pairs = []
            while self.peek()[0] != "}":
                k = self.primary()
                self.take("op") if self.peek()[1] == "=>" else None
                v = self.primary()
                pairs.append([k, v])
                if self.peek()[0] == ",":
                    self.take()
            self.take("}")
            return {"hash": pairs}
        if kind == "name":
            if text in ("true", "false"):
                return text == "true"
            if text == "undef":
                return None
            if text == "default":
                return {"default": 1}
            if self.peek()[0] == "(":
                self.take()
                return {"call": text, "args": self.args(")")}
            if text.lstrip(":")[:1].isupper():
                term = {"T": text}
                if self.peek()[0] == "[":
                    self.take()
                    term["args"] = self.args("]")
                    if self.peek()[0] == "[":
                        raise Unsupported("chained access")
                return term
            return text  # a bare word is a string
        raise Unsupported(f"unexpected {text!r}")


def convert(src: str):
    """The JSON term for ``src``, or raises Unsupported."""
    if "." in src and re.search(r"\]\s*\.\s*\w|\)\s*\.\s*\w", src):
        raise Unsupported("method call")
    return Reader(src).read()


def main(argv: list) -> int:
    here = Path(__file__).resolve()
    cases = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cases.jsonl"
    out = Path(argv[2]) if len(argv) > 2 else here.parents[2] / "fixtures/types/conformance.jsonl"
    n = bad = 0
    with cases.open() as fin, out.open("w") as fout:
        for line in fin:
            case = json.loads(line)
            if case["category"] not in CATEGORIES:
                continue
            rec = {"id": case["id"], "category": case["category"], "source": case["source"],
                   "expect": case["expect"]}
            try:
                rec["term"] = convert(case["source"])
            except Unsupported as exc:
                rec["unconverted"] = str(exc)
                bad += 1
            n += 1
            fout.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"wrote {n} cases ({bad} unconverted) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
