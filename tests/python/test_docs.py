"""docs/PYTHON.md against the code: its `>>>` examples run as doctests, and
every signature its code blocks show (lg.X(...), lg.Graph.X(...),
g.X(...)) has the code's parameter names, kinds (positional or
keyword-only) and defaults."""
import ast
import doctest
import inspect
import os
import re

import pytest

lg = pytest.importorskip("libgraph")

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "PYTHON.md")


def test_examples_run():
    failed, tried = doctest.testfile(DOC, module_relative=False, optionflags=doctest.ELLIPSIS,
                                     verbose=False)
    assert tried > 0 and failed == 0


def _code_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def _calls(block):
    """(name, parameter text) of each lg.X(, lg.Graph.X( and g.X( in a block,
    its parentheses followed across lines."""
    for m in re.finditer(r"\b(lg\.Graph\.\w+|lg\.\w+|g\.\w+)\(", block):
        depth, i = 1, m.end()
        while depth and i < len(block):
            depth += {"(": 1, ")": -1}.get(block[i], 0)
            i += 1
        yield m.group(1), block[m.end():i - 1]


def _target(name):
    head, _, attr = name.rpartition(".")
    owner = {"lg": lg, "lg.Graph": lg.Graph, "g": lg.Graph}[head]
    obj = getattr(owner, attr)
    sig = inspect.signature(obj)
    if head == "g":  # a method: drop self
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    return sig


def test_signatures_match_the_code():
    with open(DOC) as f:
        text = f.read()
    checked = 0
    for block in _code_blocks(text):
        if ">>>" in block:
            continue  # examples, run above
        for name, params in _calls(block):
            if not params.strip() and name.startswith("g."):
                continue  # g.csr() and friends: nothing to compare
            shown = ast.parse(f"def f({' '.join(params.split())}): pass").body[0].args
            want = _target(name)
            got = [(a.arg, "positional") for a in shown.posonlyargs + shown.args] + [
                (a.arg, "keyword") for a in shown.kwonlyargs]
            expected = [(p.name, "keyword" if p.kind is p.KEYWORD_ONLY else "positional")
                        for p in want.parameters.values()]
            assert got == expected, (name, got, expected)
            defaults = dict(zip([a.arg for a in shown.args][len(shown.args) - len(shown.defaults):],
                                shown.defaults))
            defaults.update({a.arg: d for a, d in zip(shown.kwonlyargs, shown.kw_defaults) if d})
            for pname, node in defaults.items():
                assert ast.literal_eval(node) == want.parameters[pname].default, (name, pname)
            for p in want.parameters.values():
                if p.default is not p.empty:
                    assert p.name in defaults, (name, p.name, "default not shown")
            checked += 1
    assert checked >= 15, checked
