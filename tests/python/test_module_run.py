"""Any algorithm by its descriptor: libgraph.algorithms() and libgraph.run
(python/libgraph/_algorithms.py over the extension's run, python/ext/algorithms.c).

run's results against NetworkX and against the typed functions (bit for
bit: the same kernels), on the shared graph shapes; node keys and dicts of
node values for a graph with names; out= arrays; each mistake the
extension refuses by type, and the library's own message for a bad value;
NotConverged with every result attached.  And the NetworkX backend on the
public package only (no underscore names of libgraph's)."""
import ast
import pathlib

import networkx as nx
import numpy as np
import pytest

from graph_cases import CPU, case, cases, check_parents, close, nx_distances, nx_labels, nx_pagerank

lg = pytest.importorskip("libgraph")

ROOT = pathlib.Path(__file__).resolve().parents[2]


def descriptor(name):
    return next(a for a in lg.algorithms() if a["name"] == name)


def test_descriptors():
    names = [a["name"] for a in lg.algorithms()]
    assert names[:3] == ["bfs", "pagerank", "connected_components"]
    assert len(set(names)) == len(names)
    for a in lg.algorithms():
        assert a["title"] and a["summary"] and a["function"].startswith("lg_")
        for p in a["params"]:
            assert set(p) == {"name", "type", "required", "default", "choices", "help"}
            assert p["type"] in ("bool", "int", "double", "precision", "vertices",
                                 "vertex_doubles")
        for r in a["results"]:
            assert set(r) == {"name", "type", "per_vertex", "per_arc", "when", "help"}
            assert not (r["per_vertex"] and r["per_arc"])
    bfs = {p["name"]: p for p in descriptor("bfs")["params"]}
    assert bfs["source"]["required"] and bfs["source"]["type"] == "vertices"
    assert (bfs["max_depth"]["default"], bfs["direction_alpha"]["default"],
            bfs["direction_beta"]["default"], bfs["parents"]["default"]) == (-1, 15, 18, False)
    pr = {p["name"]: p for p in descriptor("pagerank")["params"]}
    assert (pr["alpha"]["default"], pr["tol"]["default"], pr["max_iter"]["default"]) == \
        (0.85, 1e-6, 100)
    assert pr["precision"]["choices"] == ("float64", "float32")
    assert pr["precision"]["default"] == "float64" and pr["personalization"]["default"] is None
    assert [r["name"] for r in descriptor("bfs")["results"]] == ["distances", "parents"]
    assert descriptor("bfs")["results"][1]["when"] == "parents"
    assert descriptor("pagerank")["uses_weights"] and not descriptor("bfs")["uses_weights"]


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_run_matches_networkx_and_the_typed_functions(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    if c.n:
        sources = [0, c.n // 2]
        r = lg.run("bfs", c.g, source=sources, parents=True, max_depth=3, device=CPU)
        assert set(r) == {"distances", "parents"} and r["distances"].dtype == np.int32
        np.testing.assert_array_equal(r["distances"], nx_distances(c.G, c.n, sources, 3))
        check_parents(c, r["distances"], r["parents"], sources)
        assert set(lg.run("bfs", c.g, source=0, device=CPU)) == {"distances"}
    r = lg.run("pagerank", c.g, tol=1e-10, max_iter=1000, device=CPU)
    close(r["scores"], nx_pagerank(c, tol=1e-10, max_iter=1000))
    scores, info = lg.pagerank(c.g, tol=1e-10, max_iter=1000, device=CPU, return_info=True)
    assert r["scores"].tobytes() == scores.tobytes()
    assert (r["iterations"], r["residual"], r["converged"]) == tuple(info)
    f32 = lg.run("pagerank", c.g, precision="float32", device=CPU)["scores"]
    assert f32.dtype == np.float32
    assert f32.tobytes() == lg.pagerank(c.g, dtype="float32", device=CPU).tobytes()
    r = lg.run("connected_components", c.g, device=CPU)
    labels, count = nx_labels(c.G, c.n)
    np.testing.assert_array_equal(r["labels"], labels)
    assert r["count"] == count == lg.number_connected_components(c.g, device=CPU)


def test_names_and_node_values():
    G = nx.path_graph(["a", "b", "c", "d"])
    g = lg.Graph.from_networkx(G)
    np.testing.assert_array_equal(lg.run("bfs", g, source="b")["distances"], [1, 0, 1, 2])
    np.testing.assert_array_equal(lg.run("bfs", g, source=["a", "d"])["distances"],
                                  [0, 1, 1, 0])
    pers = {"a": 1.0, "d": 3.0}
    got = lg.run("pagerank", g, personalization=pers, tol=1e-10, max_iter=1000)["scores"]
    want = nx.pagerank(G, personalization=pers, tol=1e-10, max_iter=1000)
    close(got, np.array([want[v] for v in "abcd"]))


def test_out_arrays():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    d, p = np.full(4, 7, np.int32), np.full(4, 7, np.int32)
    r = lg.run("bfs", g, source=0, parents=True, out={"distances": d, "parents": p})
    assert r["distances"] is d and r["parents"] is p
    np.testing.assert_array_equal(d, [0, 1, 2, 3])
    np.testing.assert_array_equal(p, [0, 0, 1, 2])
    with pytest.raises(TypeError, match="no array result named 'count'"):
        lg.run("connected_components", g, out={"count": d})
    with pytest.raises(ValueError, match="labels out: has 3 entries, needs 4"):
        lg.run("connected_components", g, out={"labels": np.zeros(3, np.int32)})
    with pytest.raises(TypeError, match="scores out: must be a one-dimensional float64"):
        lg.run("pagerank", g, out={"scores": np.zeros(4, np.float32)})


def test_refusals():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match=r"no algorithm is named 'bsf' \(there are bfs, "):
        lg.run("bsf", g)
    with pytest.raises(TypeError, match=r"bfs: no parameter is named 'src' \(it has source, "):
        lg.run("bfs", g, src=0)
    with pytest.raises(TypeError, match="bfs: the parameter 'source' is required"):
        lg.run("bfs", g)
    with pytest.raises(TypeError, match="max_depth: expected an integer, not float"):
        lg.run("bfs", g, source=0, max_depth=1.5)
    with pytest.raises(TypeError, match="alpha: expected a number, not str"):
        lg.run("pagerank", g, alpha="0.5")
    with pytest.raises(ValueError, match=r"precision: must be 'float64' or 'float32', not 'f16'"):
        lg.run("pagerank", g, precision="f16")
    with pytest.raises(TypeError, match="source: expected a vertex id, not a bool"):
        lg.run("bfs", g, source=True)
    # the library's checks, with its messages
    with pytest.raises(ValueError, match=r"lg_bfs: max_depth 2147483648 is out of range"):
        lg.run("bfs", g, source=0, max_depth=2**31)
    with pytest.raises(ValueError, match=r"max_depth: 1180591620717411303424 is out of range"):
        lg.run("bfs", g, source=0, max_depth=2**70)
    with pytest.raises(ValueError, match=r"lg_bfs: max_depth -2 < -1"):
        lg.run("bfs", g, source=0, max_depth=-2)
    with pytest.raises(ValueError, match=r"lg_pagerank: alpha 2 is not in \[0, 1\]"):
        lg.run("pagerank", g, alpha=2)
    with pytest.raises(ValueError, match="lg_pagerank: dangling has 2 values; the graph has 4"):
        lg.run("pagerank", g, dangling=[1.0, 1.0])
    with pytest.raises(ValueError, match="lg_pagerank: dangling has 2 values; the graph has 4"):
        lg.pagerank(g, dangling=[1.0, 1.0])
    with pytest.raises(TypeError, match="params must be a dict"):
        lg._libgraph.run("bfs", g._g, [0])


def test_not_converged_carries_every_result():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    with pytest.raises(lg.NotConverged, match="no convergence in 3 iterations") as e:
        lg.run("pagerank", g, tol=0.0, max_iter=3)
    assert e.value.iterations == 3 and e.value.converged is False and e.value.residual > 0
    assert isinstance(e.value.scores, np.ndarray) and abs(e.value.scores.sum() - 1) < 1e-12


def test_networkx_backend_uses_the_public_package_only():
    """nx_libgraph imports no private module of libgraph's and reads no
    underscore name of it: it stands on what any user of the package has."""
    for path in sorted((ROOT / "python" / "nx_libgraph").glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        aliases = {"libgraph"}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split(".")[0] == "libgraph":
                for a in node.names:
                    assert not a.name.startswith("_"), f"{path.name} imports {a.name}"
                    aliases.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "libgraph":
                        assert not any(p.startswith("_") for p in a.name.split("."))
                        aliases.add(a.asname or a.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in aliases:
                assert not node.attr.startswith("_"), \
                    f"{path.name}:{node.lineno} reads {node.value.id}.{node.attr}"
