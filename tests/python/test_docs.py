"""docs/PYTHON.md and README.md against the code: PYTHON.md's `>>>`
examples run as doctests, and every signature its code blocks show
(lg.X(...), lg.Graph.X(...), g.X(...)) has the code's parameter names, kinds
(positional or keyword-only) and defaults; README.md's Python example runs,
the install it names brings every module the example imports, and the Python
version it states is python/pyproject.toml's."""
import ast
import doctest
import inspect
import os
import re
import subprocess
import sys
import tomllib

import pytest

lg = pytest.importorskip("libgraph")

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DOC = os.path.join(ROOT, "docs", "PYTHON.md")
README = os.path.join(ROOT, "README.md")


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
                (a.arg, "keyword") for a in shown.kwonlyargs] + (
                [(shown.kwarg.arg, "**")] if shown.kwarg else [])
            kinds = {inspect.Parameter.KEYWORD_ONLY: "keyword", inspect.Parameter.VAR_KEYWORD: "**"}
            expected = [(p.name, kinds.get(p.kind, "positional")) for p in want.parameters.values()]
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


def _readme_python_example():
    """The README's install command for Python (the sh block before the
    example) and the example (the python block after its marker)."""
    with open(README) as f:
        text = f.read()
    head, marker, tail = text.partition("<!-- readme-python-example")
    assert marker, "no readme-python-example marker in README.md"
    install = re.findall(r"```sh\n(.*?)```", head, re.S)[-1].strip()
    example = re.search(r"```python\n(.*?)```", tail, re.S).group(1)
    return install, example


def _name(requirement):
    return re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].lower()


def test_readme_python_example_runs():
    _, example = _readme_python_example()
    out = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] in ("cpu", "gpu"), out.stdout


def test_readme_install_brings_what_the_example_imports():
    """`pip install "./python[EXTRA,...]" PACKAGE...`: the package's own
    dependencies, the extras' and the packages named cover every third-party
    module the example imports."""
    install, example = _readme_python_example()
    words = install.split()
    assert words[:2] == ["pip", "install"], install
    target = re.fullmatch(r"\./python/?(?:\[(.*)\])?", words[2].strip('"\''))
    assert target, install
    extras = target.group(1).split(",") if target.group(1) else []
    with open(os.path.join(ROOT, "python", "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    brought = {_name(r) for r in project.get("dependencies", [])}
    for extra in extras:
        brought |= {_name(r) for r in project["optional-dependencies"][extra.strip()]}
    brought |= {_name(w) for w in words[3:]}
    imported = set()
    for node in ast.walk(ast.parse(example)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    third_party = {m for m in imported if m not in sys.stdlib_module_names and m != "libgraph"}
    assert third_party, "no imports found in the README's example"
    assert third_party <= brought, (third_party - brought, install)


def test_readme_states_the_python_version_pyproject_requires():
    with open(os.path.join(ROOT, "python", "pyproject.toml"), "rb") as f:
        requires = tomllib.load(f)["project"]["requires-python"]
    m = re.fullmatch(r">=\s*(\d+\.\d+)", requires)
    assert m, requires
    with open(README) as f:
        text = f.read()
    assert f"Python {m.group(1)} or newer" in text
    assert f'requires-python = "{requires}"' in text


def _read(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return f.read()


def test_readme_puts_lgraph_on_the_path_before_calling_it():
    """lgraph is installed in ./.local/bin: the README says how to put it on
    PATH before its first bare `lgraph` command, and install.sh prints the
    line."""
    text = _read("README.md")
    line = 'export PATH="$PWD/.local/bin:$PATH"'
    assert line in text
    calls = [m.start(1) + c.start() for m in re.finditer(r"```sh\n(.*?)```", text, re.S)
             for c in re.finditer(r"^lgraph ", m.group(1), re.M)]
    assert calls and text.index(line) < min(calls)
    assert 'export PATH=\\"$prefix/bin:\\$PATH\\"' in _read("install.sh")


def _debian_packages_installed_by_the_scripts():
    """The Debian packages install.sh, tools/cross-test.sh and
    tools/build-wheel.sh may install (LLVM's version written N)."""
    install = _read("install.sh")
    pkgs = set(re.findall(r'^\s+\[([\w.+-]+)\]="', install, re.M))  # set-up's probes
    for words in re.findall(r'install_test_packages "[^"]*" ([^$\n]+)$', install, re.M):
        pkgs |= set(words.split())
    body = re.search(r"^reliability_packages\(\) \{\n(.*?)^\}", install, re.M | re.S).group(1)
    pkgs |= {w.strip('"').replace("$llvm", "N") for w in re.findall(r'"?[\w.+-]*\$llvm[\w.+-]*"?|\bvalgrind\b', body)}
    cross = _read("tools", "cross-test.sh")
    for call in re.findall(r"apt_install ((?:[^\n\\]|\\\n)+)", cross):
        words = call.replace("\\\n", " ").split()
        pkgs |= set(words[0::2])  # PACKAGE PROBE pairs
    wheel = _read("tools", "build-wheel.sh")
    block = re.search(r"debian_packages\(\) \{(.*?)\n\}", wheel, re.S).group(1)
    pkgs |= {p for p in re.findall(r'"([\w.+-]+):[^"]+"', block)}
    return pkgs


def test_readme_names_every_debian_package_the_scripts_install():
    text = _read("README.md")
    pkgs = _debian_packages_installed_by_the_scripts()
    assert {"openmpi-bin", "hipcc", "clang-N", "libomp-N-dev", "valgrind", "qemu-user-static",
            "gcc"} <= pkgs, pkgs
    # the base tools every Debian has (dpkg, apt, coreutils, binutils with gcc)
    # are probed by build-wheel.sh but never missing there
    base = {"dpkg", "apt", "coreutils", "binutils"}
    missing = sorted(p for p in pkgs - base if not re.search(rf"(?<![\w.+-]){re.escape(p)}(?![\w.+-])", text))
    assert not missing, missing


def test_readme_documents_every_install_sh_job():
    jobs = re.search(r"^\s+([\w|]+)\) job=\"\$1\" ;;", _read("install.sh"), re.M).group(1).split("|")
    text = _read("README.md")
    assert {"run", "test", "clean", "uninstall"} <= set(jobs), jobs
    for job in set(jobs) - {"setup"}:
        assert f"./install.sh {job}" in text, job


def test_licence_and_changelog():
    """LICENSE is MIT (as python/pyproject.toml says), and CHANGELOG.md has a
    section for the version the package has."""
    licence = _read("LICENSE")
    assert licence.startswith("MIT License") and "Copyright (c) the libgraph authors" in licence
    with open(os.path.join(ROOT, "python", "pyproject.toml"), "rb") as f:
        assert tomllib.load(f)["project"]["license"] == {"text": "MIT"}
    changelog = _read("CHANGELOG.md")
    assert f"## [{lg.__version__}]" in changelog
    assert "keepachangelog.com" in changelog
