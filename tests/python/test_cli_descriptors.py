"""lgraph's algorithm commands come from the library's descriptors
(tools/names.c, help.c, commands.c): every algorithm is a command, every
parameter an option documented in the command's --help with its default,
and the command's --output and --json hold the same results as
libgraph.run with the same parameters, for every algorithm."""
import json

import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

SHORT = {"connected_components": "cc",  # names.c's short command names
         "strongly_connected_components": "scc", "betweenness_centrality": "bc",
         "closeness_centrality": "closeness", "eigenvector_centrality": "eigenvector",
         "katz_centrality": "katz", "edge_betweenness_centrality": "ebc",
         "betweenness_centrality_subset": "bc-subset", "triangles": "tc"}


def command(a):
    return SHORT.get(a["name"], a["name"])


def option(p):
    negated = p["type"] == "bool" and p["default"]
    return "--" + ("no-" if negated else "") + p["name"].replace("_", "-")


@pytest.mark.parametrize("a", lg.algorithms(), ids=lambda a: a["name"])
def test_help_lists_every_parameter(lgraph, a):
    text = lgraph(command(a), "--help").stdout
    assert text.startswith(f"usage: lgraph {command(a)} INPUT")
    assert " ".join(a["summary"].split()[:4]) in " ".join(text.split())
    for p in a["params"]:
        if p["type"] == "vertex_doubles":
            continue  # a vector a vertex is not offered on the command line
        assert option(p) in text, p["name"]
        if p["type"] in ("int", "double") and p["default"] is not None:
            assert f"default {p['default']:g}" in " ".join(text.split()), p["name"]
    assert command(a) in lgraph("--help").stdout


def test_options_of_another_command_are_refused(lgraph):
    proc = lgraph("cc", "kron:6", "--max-depth", "2", check=False)
    assert proc.returncode == 2
    assert "--max-depth is not an option of this command" in proc.stderr


def cli_value(p, v):
    if p["type"] == "vertices":
        return ",".join(map(str, v))
    return str(v)


# Parameters each command is run with, by algorithm (those not named here
# keep their defaults): values away from the defaults where the type allows.
CHOSEN = {"bfs": {"source": [3, 9], "parents": True, "max_depth": 3},
          "pagerank": {"alpha": 0.7, "tol": 1e-9, "precision": "float32"},
          "sssp": {"source": [3], "predecessors": True, "cutoff": 3.0},
          "betweenness_centrality": {"sources": [3, 9, 20], "normalized": False,
                                     "endpoints": True},
          "betweenness_centrality_subset": {"sources": [3, 9, 20], "targets": [1, 5, 9, 200],
                                            "normalized": False},
          "closeness_centrality": {"wf_improved": False},
          "eigenvector_centrality": {"tol": 1e-9, "max_iter": 1000},
          "katz_centrality": {"alpha": 0.002, "beta": 2.0, "normalized": False},
          "hits": {"tol": 1e-10, "max_iter": 1000}}


@pytest.mark.parametrize("a", lg.algorithms(), ids=lambda a: a["name"])
def test_output_equals_libgraph_run(lgraph, tmp_path, a):
    path = tmp_path / "g.el"
    src, dst = lg.generate_edges("kron", 8, seed=5)
    np.savetxt(path, np.stack([src, dst], 1), fmt="%d")
    g = lg.Graph.load(path, directed=False)
    chosen = CHOSEN.get(a["name"], {})
    if any(p["required"] and p["name"] not in chosen for p in a["params"]):
        chosen = {**chosen, **{p["name"]: [0] for p in a["params"] if p["required"]
                               and p["name"] not in chosen}}
    args = []
    params = {p["name"]: p for p in a["params"]}
    for name, v in chosen.items():
        p = params[name]
        if p["type"] == "bool":
            if v != p["default"]:
                args.append(option(p))
        else:
            args += [option(p), cli_value(p, v)]
    out = tmp_path / "out.txt"
    # one thread each: a BFS parent is any valid one, and one thread picks
    # the same on both sides
    proc = lgraph(command(a), path, "--undirected", "--threads", 1, *args, "--output", out,
                  "--json")
    want = lg.run(a["name"], g, device=lg.Context("cpu", num_threads=1), **chosen)
    per_arc = any(r["per_arc"] for r in a["results"])
    columns = [r["name"] for r in a["results"]
               if (r["per_arc"] if per_arc else r["per_vertex"]) and r["name"] in want]
    rows = [line.split() for line in out.read_text().splitlines()]
    if per_arc:  # a line an arc: its tail and head, then the results
        offsets, indices, _ = g.csr()
        tails = np.repeat(np.arange(g.num_vertices), np.diff(offsets))
        assert [(int(r[0]), int(r[1])) for r in rows] == list(zip(tails.tolist(),
                                                                   indices.tolist()))
        rows = [r[2:] for r in rows]
    assert len(rows) == (g.num_edges if per_arc else g.num_vertices)
    assert all(len(r) == len(columns) for r in rows)
    for c, name in enumerate(columns):
        got = np.array([float(r[c]) for r in rows])
        # %.17g (float64) and %.9g (float32) read back exactly
        np.testing.assert_array_equal(got.astype(want[name].dtype), want[name], err_msg=name)
    # --json holds every one-value result, exactly (%.17g reads back as the double)
    line = json.loads(proc.stdout.strip().splitlines()[-1])
    for r in a["results"]:
        if not (r["per_vertex"] or r["per_arc"]) and r["name"] in want:
            assert line[r["name"]] == want[r["name"]], r["name"]
