"""libgraph as a NetworkX backend (python/nx_libgraph): registration, the
conversion and its cache, and every function against NetworkX itself on
random graphs of many shapes (directed and not, multigraphs, string and
tuple keys, isolated nodes, self-loops, weights), on the CPU (and on the GPU
with LIBGRAPH_TEST_DEVICE=gpu)."""
import contextlib
import importlib.metadata
import math
import os
import random
import sys
import warnings

import pytest

nx = pytest.importorskip("networkx")

# the device of the calls that take one: the CPU here, the GPU in
# tests/gpu/run_on_device.sh (LIBGRAPH_TEST_DEVICE=gpu)
CPU = {"device": os.environ.get("LIBGRAPH_TEST_DEVICE", "cpu")}


@pytest.fixture(autouse=True)
def _quiet_cache_note():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*conversions to backend graphs.*")
        yield


def test_registered_and_info_without_the_extension():
    eps = importlib.metadata.entry_points()
    assert [e.value for e in eps.select(group="networkx.backends", name="libgraph")] == [
        "nx_libgraph.interface"]
    assert "libgraph" in nx.utils.backends.backends
    # get_info may not import libgraph's extension (NetworkX calls it at import)
    import subprocess
    code = ("import sys, nx_libgraph; info = nx_libgraph.get_info(); "
            "assert 'libgraph._libgraph' not in sys.modules and 'libgraph' not in sys.modules; "
            "assert info['backend_name'] == 'libgraph' and info['default_config'] == "
            "{'device': 'auto'}; print(sorted(info['functions']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "pagerank" in out.stdout and "connected_components" in out.stdout
    assert nx.config.backends.libgraph.device == "auto"


def _graphs(seed):
    """NetworkX graphs of many shapes, directed or not, multigraph or not."""
    rng = random.Random(seed)
    keys = [lambda i: i, lambda i: f"n{i}", lambda i: (i % 7, str(i)), lambda i: 3 * i - 50]
    for kind in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        for key in keys:
            n = rng.choice([1, 2, 17, 120, 400])
            G = kind()
            G.add_nodes_from(key(i) for i in rng.sample(range(n), n))  # any node order
            for _ in range(rng.choice([0, n // 3, 2 * n, 6 * n])):
                u, v = key(rng.randrange(n)), key(rng.randrange(n))
                if rng.random() < 0.6:
                    G.add_edge(u, v, weight=rng.choice([0.25, 1, 2.5, 7]))
                else:
                    G.add_edge(u, v)
            yield G


def _close(got, want):
    assert list(got) == list(want)  # same keys, same order
    for k in want:
        assert abs(got[k] - want[k]) <= 1e-9 + 1e-6 * abs(want[k]), k


@pytest.mark.parametrize("seed", [1, 2])
def test_pagerank_matches_networkx(seed):
    for G in _graphs(seed):
        for weight in ("weight", None):
            want = nx.pagerank(G, weight=weight, tol=1e-10, max_iter=500)
            got = nx.pagerank(G, weight=weight, tol=1e-10, max_iter=500, backend="libgraph",
                              **CPU)
            _close(got, want)
            assert all(type(x) is float for x in got.values())
        if len(G) > 2:
            nodes = list(G)
            p = {nodes[0]: 1.0, nodes[-1]: 3.0, "not a node": 9.0}
            d = {nodes[1]: 2.0}
            want = nx.pagerank(G, personalization=p, dangling=d, tol=1e-10, max_iter=500)
            got = nx.pagerank(G, personalization=p, dangling=d, tol=1e-10, max_iter=500,
                              backend="libgraph", **CPU)
            _close(got, want)


def test_pagerank_errors_are_networkx_errors():
    G = nx.gnp_random_graph(200, 0.05, seed=3, directed=True)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=1, tol=1e-12, backend="libgraph", **CPU)
    with pytest.raises(ZeroDivisionError):
        nx.pagerank(G, personalization={"absent": 1.0}, backend="libgraph", **CPU)
    assert nx.pagerank(nx.Graph(), backend="libgraph") == {}


@pytest.mark.parametrize("seed", [1, 2])
def test_components_match_networkx(seed):
    for G in _graphs(seed):
        if G.is_directed():
            want = list(nx.weakly_connected_components(G))
            assert list(nx.weakly_connected_components(G, backend="libgraph", **CPU)) == want
            assert nx.number_weakly_connected_components(G, backend="libgraph") == len(want)
            assert nx.is_weakly_connected(G, backend="libgraph") == (len(want) == 1)
            with pytest.raises(nx.NetworkXNotImplemented):
                nx.connected_components(G, backend="libgraph")
        else:
            want = list(nx.connected_components(G))
            got = nx.connected_components(G, backend="libgraph", **CPU)
            assert not isinstance(got, (list, set))  # a generator, as NetworkX's
            assert list(got) == want
            assert nx.number_connected_components(G, backend="libgraph") == len(want)
            assert nx.is_connected(G, backend="libgraph") == (len(want) == 1)
            node = next(iter(G))
            assert nx.node_connected_component(G, node, backend="libgraph") == \
                nx.node_connected_component(G, node)
            with pytest.raises(KeyError):
                nx.node_connected_component(G, "not a node", backend="libgraph")
            with pytest.raises(nx.NetworkXNotImplemented):
                nx.weakly_connected_components(G, backend="libgraph")
    for f in (nx.is_connected, nx.is_weakly_connected):
        with pytest.raises(nx.NetworkXPointlessConcept):
            f(nx.DiGraph() if f is nx.is_weakly_connected else nx.Graph(), backend="libgraph")


def test_conversion_is_cached_until_the_graph_changes():
    from nx_libgraph import interface

    G = nx.gnm_random_graph(300, 900, seed=5)
    calls = []
    real = interface.convert_from_nx

    def counting(*args, **kwargs):
        calls.append(kwargs.get("edge_attrs"))
        return real(*args, **kwargs)

    interface.convert_from_nx = counting
    try:
        for _ in range(3):
            nx.number_connected_components(G, backend="libgraph")
        assert len(calls) == 1
        nx.pagerank(G, backend="libgraph")  # needs the weights: another conversion
        nx.pagerank(G, backend="libgraph")
        assert len(calls) == 2
        G.add_edge(0, 299)  # NetworkX clears the cache
        nx.number_connected_components(G, backend="libgraph")
        assert len(calls) == 3
    finally:
        interface.convert_from_nx = real


def test_should_run_sends_small_graphs_back_and_says_why():
    from nx_libgraph import interface

    small = nx.path_graph(5)
    why = interface.should_run("connected_components", (small,), {})
    assert isinstance(why, str) and "5 nodes" in why
    assert interface.should_run("pagerank", (small,), {}) is True
    assert interface.should_run("connected_components", (nx.path_graph(500),), {}) is True
    # by priority: the small graph runs on NetworkX, the result is the same
    old = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["libgraph"]
    try:
        assert list(nx.connected_components(small)) == [set(range(5))]
        assert nx.number_connected_components(nx.path_graph(500)) == 1
    finally:
        nx.config.backend_priority.algos = old


def test_device_setting_reaches_libgraph():
    import libgraph as lg

    G = nx.gnm_random_graph(300, 900, seed=6)
    old = nx.config.backends.libgraph.device
    nx.config.backends.libgraph.device = "cpu"
    try:
        nx.pagerank(G, backend="libgraph")
        assert lg.last_backend() == "cpu"
    finally:
        nx.config.backends.libgraph.device = old
    with pytest.raises(Exception):
        nx.pagerank(G, backend="libgraph", device="no such device")


def test_convert_to_nx_round_trip():
    from nx_libgraph import interface

    G = nx.DiGraph()
    G.add_edge("a", "b", weight=2.0)
    G.add_edge("b", "c", weight=0.5)
    G.add_node("z")
    back = interface.convert_to_nx(interface.convert_from_nx(G, edge_attrs={"weight": 1}))
    assert list(back) == ["a", "b", "c", "z"]
    assert sorted(back.edges(data="weight")) == [("a", "b", 2.0), ("b", "c", 0.5)]
    assert interface.convert_to_nx(42) == 42


def _traversal_calls(G, source, rng):
    """(name, args, kwargs) of every traversal on G from source."""
    yield "bfs_edges", (source,), {}
    yield "bfs_edges", (source,), {"depth_limit": rng.choice([0, 1, 2, 2.5])}
    if G.is_directed():
        yield "bfs_edges", (source,), {"reverse": True}
        yield "bfs_tree", (source,), {"reverse": True, "depth_limit": 3}
    yield "bfs_tree", (source,), {}
    yield "bfs_predecessors", (source,), {}
    yield "bfs_successors", (source,), {"depth_limit": 2}
    yield "bfs_layers", (source,), {}
    nodes = list(G)
    yield "bfs_layers", ([source, nodes[-1], source],), {}
    for d in (0, 1, 2, 5, -1):
        yield "descendants_at_distance", (source, d), {}
    yield "single_source_shortest_path_length", (source,), {}
    yield "single_source_shortest_path_length", (source,), {"cutoff": rng.choice([0, 1, 1.5])}
    yield "shortest_path_length", (), {"source": source}


def _materialize(x):
    if isinstance(x, nx.Graph):
        return (type(x), list(x.nodes), list(x.edges))
    if isinstance(x, (dict, set, list)):
        return list(x.items()) if isinstance(x, dict) else x
    return list(x) if hasattr(x, "__iter__") else x  # a generator, or a number or bool


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_traversals_match_networkx_in_order(seed):
    rng = random.Random(seed)
    for G in _graphs(seed):
        for source in rng.sample(list(G), min(2, len(G))):
            for name, args, kwargs in _traversal_calls(G, source, rng):
                f = getattr(nx, name)
                want = _materialize(f(G, *args, **kwargs))
                got = _materialize(f(G, *args, backend="libgraph", **kwargs))
                assert got == want, (name, args, kwargs)


def _declined_by_name(f, *args, why, **kwargs):
    """f(*args, backend="libgraph", **kwargs) raises NetworkX's
    NotImplementedError, caused by the backend's, which says why and what to
    do (can_run takes the call, so that the function can say it)."""
    from nx_libgraph import interface

    assert interface.can_run(f.name, args, kwargs) is True
    with pytest.raises(NotImplementedError, match="libgraph") as info:
        _materialize(f(*args, backend="libgraph", **kwargs))
    cause = info.value.__cause__
    assert isinstance(cause, NotImplementedError), info.value
    assert str(cause).startswith(why), cause
    assert str(cause).endswith('; libgraph declines such calls: leave out backend="libgraph" '
                               '(or pass backend="networkx") and NetworkX runs it'), cause


def test_traversal_errors_and_declines():
    from nx_libgraph import interface

    G = nx.path_graph(300)
    for name, args, err in [("bfs_edges", (-1,), nx.NetworkXError),
                            ("bfs_tree", (-1,), nx.NetworkXError),
                            ("bfs_layers", ([0, -1],), nx.NetworkXError),
                            ("descendants_at_distance", (-1, 1), nx.NetworkXError),
                            ("single_source_shortest_path_length", (-1,), nx.NodeNotFound)]:
        with pytest.raises(err):
            _materialize(getattr(nx, name)(G, *args, backend="libgraph"))
    assert isinstance(interface.should_run("bfs_edges", (G, 0), {"sort_neighbors": sorted}), str)
    assert isinstance(interface.should_run("shortest_path_length", (G,), {}), str)
    assert interface.should_run("shortest_path", (G, 0, 5), {"weight": "w"}) is True
    assert interface.should_run("shortest_path", (G, 0, 5), {}) is True
    assert isinstance(interface.should_run("shortest_path_length", (G, 0),
                                           {"weight": lambda u, v, d: 1}), str)
    assert interface.should_run("shortest_path_length", (G, 0), {}) is True
    assert interface.should_run("shortest_path_length", (G, 0, 5), {}) is True
    # asked for by name, a form it does not have is refused, not answered
    # wrongly, and the user is told why
    _declined_by_name(nx.shortest_path_length, G,
                      why="shortest_path_length: every pair of nodes")
    _declined_by_name(nx.shortest_path, nx.path_graph(300, nx.DiGraph), target=5,
                      why="shortest_path: to one target of a directed graph")
    # sort_neighbors: refused when asked for by name, run by NetworkX by priority
    S = nx.Graph([(0, 3), (0, 1), (0, 2)] + [(i, i + 1) for i in range(3, 300)])
    _declined_by_name(nx.bfs_edges, S, 0, sort_neighbors=sorted,
                      why="sort_neighbors: libgraph's traversal follows NetworkX's adjacency "
                          "order only")
    old = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["libgraph"]
    try:
        assert list(nx.bfs_edges(S, 0, sort_neighbors=sorted))[:3] == [(0, 1), (0, 2), (0, 3)]
        assert list(nx.bfs_edges(S, 0))[:3] == [(0, 3), (0, 1), (0, 2)]
    finally:
        nx.config.backend_priority.algos = old


def test_result_builders_check_their_input():
    """The C helpers behind the results (libgraph.nxkit, python/ext/nx_backend.c) refuse
    arrays that do not describe a visit of these nodes, and give exact
    results for ones that do."""
    import numpy as np
    from libgraph import nxkit

    i32, i64 = (lambda *x: np.array(x, np.int32)), (lambda *x: np.array(x, np.int64))
    # the path 0 - 1 - 2 as a CSR in adjacency order, and 3 isolated
    off, idx = i64(0, 1, 3, 4, 4), i32(1, 0, 2, 1)
    order, parents, ends = nxkit.bfs_visit(off, idx, [1])
    assert np.frombuffer(order, np.int32).tolist() == [1, 0, 2]
    assert np.frombuffer(parents, np.int32).tolist() == [-1, 1, 1]
    assert ends == [1, 3]
    nodes = ["a", "b", "c", "d"]
    assert nxkit.levels(nodes, order, ends) == {"b": 0, "a": 1, "c": 1}
    assert nxkit.tree_edges(nodes, order, parents) == [("b", "a"), ("b", "c")]
    assert nxkit.tree_edges(nodes, order, parents, "reversed") == [("a", "b"), ("c", "b")]
    assert nxkit.tree_edges(nodes, order, parents, "successors") == [("b", ["a", "c"])]
    with pytest.raises(ValueError, match="form"):
        nxkit.tree_edges(nodes, order, parents, "sideways")
    assert nxkit.take(nodes, order, 1, 3) == ["a", "c"]
    assert nxkit.components(nodes, i32(0, 0, 0, 3)) == [{"a", "b", "c"}, {"d"}]
    with pytest.raises(ValueError, match="not a CSR"):
        nxkit.bfs_visit(i64(0, 1, 5), idx, [0])
    with pytest.raises(ValueError, match="not in"):
        nxkit.bfs_visit(off, idx, [4])
    with pytest.raises(ValueError, match="not a vertex"):
        nxkit.bfs_visit(off, i32(1, 0, 7, 1), [1])
    with pytest.raises(ValueError, match="one int32 label"):
        nxkit.components(nodes, i32(0, 0, 0))
    with pytest.raises(ValueError, match="not a node position"):
        nxkit.components(nodes, i32(0, 0, 0, 9))
    with pytest.raises(ValueError, match="not a node"):
        nxkit.levels(nodes, i32(1, 9), [1, 2])
    with pytest.raises(ValueError, match="one parent"):
        nxkit.tree_edges(nodes, order, i32(-1))
    with pytest.raises(ValueError, match="not a node"):
        nxkit.tree_edges(nodes, i32(0, 9), i32(-1, 0))
    with pytest.raises(ValueError, match="within the order"):
        nxkit.take(nodes, order, 2, 5)
    with pytest.raises(ValueError, match="within the order"):
        nxkit.take(nodes, order, -1, 1)
    with pytest.raises(ValueError, match="not a node"):
        nxkit.take(nodes, i32(0, 9), 0, 2)


# ---- graph views, what the backend declines, and the cache ------------------------------


@contextlib.contextmanager
def _libgraph_first():
    """NetworkX's calls dispatched to libgraph first (backend_priority)."""
    old = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["libgraph"]
    try:
        yield
    finally:
        nx.config.backend_priority.algos = old


def _outcome(f, *args, **kwargs):
    """What a call gives: ("returns", the result materialized, its repr: NaN
    compares equal to itself), or ("raises", the exception's type)."""
    try:
        got = _materialize(f(*args, **kwargs))
    except Exception as exc:  # the type is compared with NetworkX's own
        return ("raises", type(exc))
    return ("returns", repr(got))


def _views(G, rng):
    """(name, view) for the views NetworkX makes of G."""
    nodes = list(G)
    edges = list(G.edges(keys=True) if G.is_multigraph() else G.edges)
    some = rng.sample(nodes, len(nodes) * 5 // 6)
    yield "subgraph", G.subgraph(some)
    yield "edge_subgraph", G.edge_subgraph(rng.sample(edges, len(edges) // 2))
    yield "restricted_view", nx.restricted_view(G, rng.sample(nodes, 7),
                                                rng.sample(edges, len(edges) // 4))
    hidden = set(rng.sample(nodes, 9))
    yield "subgraph_view", nx.subgraph_view(
        G, filter_node=lambda n: n not in hidden,
        filter_edge=lambda u, v, *key: (hash(u) ^ hash(v)) % 3 != 0)  # symmetric
    yield "subgraph of a subgraph", G.subgraph(some).subgraph(some[: len(some) // 2])
    yield "restricted subgraph", nx.restricted_view(G.subgraph(some), some[:5], [])
    if G.is_directed():
        yield "reverse", G.reverse(copy=False)
        yield "to_undirected", G.to_undirected(as_view=True)
        yield "undirected subgraph", G.subgraph(some).to_undirected(as_view=True)
    else:
        yield "to_directed", G.to_directed(as_view=True)


def _view_graphs(seed):
    """Random graphs of each kind with weights on both arcs of many node
    pairs (u -> v and v -> u differ in a directed graph) and parallel edges."""
    rng = random.Random(seed)
    for kind in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        G = kind()
        n = 260
        G.add_nodes_from(rng.sample(range(n), n))
        for _ in range(3 * n):
            u, v = rng.randrange(n), rng.randrange(n)
            if rng.random() < 0.7:
                G.add_edge(u, v, weight=rng.choice([0.5, 1, 3, 8]))
            else:
                G.add_edge(u, v)
        yield G


def _check_view(V, rng):
    """Every function on view V with libgraph equals NetworkX's on it."""
    for weight in ("weight", None):
        _close(nx.pagerank(V, weight=weight, tol=1e-10, max_iter=500, backend="libgraph"),
               nx.pagerank(V, weight=weight, tol=1e-10, max_iter=500))
    if V.is_directed():
        names = ["weakly_connected_components", "number_weakly_connected_components",
                 "is_weakly_connected"]
    else:
        names = ["connected_components", "number_connected_components", "is_connected"]
    for name in names:
        f = getattr(nx, name)
        assert _materialize(f(V, backend="libgraph")) == _materialize(f(V)), name
    for source in rng.sample(list(V), 2):
        for name, args, kwargs in _traversal_calls(V, source, rng):
            f = getattr(nx, name)
            assert _materialize(f(V, *args, backend="libgraph", **kwargs)) == \
                _materialize(f(V, *args, **kwargs)), (name, args, kwargs)


@pytest.mark.parametrize("seed", [1, 2])
def test_views_match_networkx(seed):
    rng = random.Random(seed)
    for G in _view_graphs(seed):
        for name, V in _views(G, rng):
            assert len(V) > 0, name
            _check_view(V, rng)


def test_views_run_on_libgraph_by_priority(monkeypatch):
    from nx_libgraph import interface

    G = nx.gnm_random_graph(300, 1200, seed=7, directed=True)
    for u, v in G.edges:
        G[u][v]["weight"] = (u * v) % 5 + 0.5
    converted = []
    real = interface.convert_from_nx
    monkeypatch.setattr(interface, "convert_from_nx",
                        lambda V, *a, **k: converted.append(V) or real(V, *a, **k))
    for V in (G.subgraph(range(250)), G.edge_subgraph(list(G.edges)[:700]),
              nx.restricted_view(G, [1, 2], [(3, 4)]), G.to_undirected(as_view=True)):
        want = nx.pagerank(V)
        with _libgraph_first():
            got = nx.pagerank(V)
        _close(got, want)
        assert converted[-1] is V  # libgraph ran it
        with _libgraph_first():
            assert list(nx.bfs_edges(V, 5)) == list(nx.bfs_edges(V, 5, backend="networkx"))


def test_a_view_follows_its_graph():
    """NetworkX clears a graph's cache when the graph changes, not the cache
    of a view of it: the view's conversions are not kept."""
    G = nx.gnm_random_graph(300, 900, seed=8)
    V = G.subgraph(range(260))
    R = nx.restricted_view(G, [], [])
    for view in (V, R):
        _close(nx.pagerank(view, backend="libgraph"), nx.pagerank(view))
        assert nx.number_connected_components(view, backend="libgraph") == \
            nx.number_connected_components(view)
    G.add_edge(0, 1, weight=50.0)
    G.remove_edges_from(list(G.edges(range(100, 140))))
    for view in (V, R):
        _close(nx.pagerank(view, backend="libgraph"), nx.pagerank(view))
        assert nx.number_connected_components(view, backend="libgraph") == \
            nx.number_connected_components(view)
        assert list(nx.bfs_edges(view, 0, backend="libgraph")) == list(nx.bfs_edges(view, 0))


# Edge weights NetworkX computes with and libgraph cannot take as given
# (libgraph keeps finite weights >= 0 as float32): the backend declines them.
BAD_WEIGHTS = [-1, -0.0001, 1e-50, 1e-40, 1e300, 4e38, math.inf, -math.inf, math.nan, 10**400,
               "heavy", 1 + 2j, None]
# Weights it takes: its results are NetworkX's.
GOOD_WEIGHTS = [0, 0.0, 1e-30, 3e38, True, 7, 2.5]


def _exact_weight(w):
    """Whether the backend's exact (float64) conversion takes w, >= 0."""
    try:
        return isinstance(w, (int, float)) and math.isfinite(w) and w >= 0
    except OverflowError:
        return False


def _weighted(kind, w, seed=9):
    G = kind(nx.gnm_random_graph(250, 700, seed=seed, directed=kind().is_directed()))
    edges = list(G.edges)
    for e in edges[::2]:
        G.edges[e]["weight"] = 2.0
    G.edges[edges[3]]["weight"] = w
    if G.is_multigraph() and isinstance(w, (int, float)) and w < 0:
        G.add_edge(*edges[3][:2], weight=5.0)  # a positive sum must not hide it
    return G


def _function_calls(G):
    """(name, args, kwargs) of a call of every function the backend has."""
    node = next(iter(G))
    yield "pagerank", (), {}
    yield "pagerank", (), {"weight": None}
    if G.is_directed():
        yield "strongly_connected_components", (), {}
        yield "number_strongly_connected_components", (), {}
        yield "is_strongly_connected", (), {}
        yield "weakly_connected_components", (), {}
        yield "number_weakly_connected_components", (), {}
        yield "is_weakly_connected", (), {}
    else:
        yield "connected_components", (), {}
        yield "number_connected_components", (), {}
        yield "is_connected", (), {}
        yield "node_connected_component", (node,), {}
    yield "bfs_edges", (node,), {}
    yield "bfs_tree", (node,), {}
    yield "bfs_predecessors", (node,), {}
    yield "bfs_successors", (node,), {}
    yield "bfs_layers", (node,), {}
    yield "descendants_at_distance", (node, 2), {}
    yield "single_source_shortest_path_length", (node,), {}
    yield "shortest_path_length", (), {"source": node}
    yield "shortest_path", (), {"source": node}
    yield "bidirectional_shortest_path", (node, node), {}
    yield "single_source_shortest_path", (node,), {}
    yield "descendants", (node,), {}
    yield "ancestors", (node,), {}
    yield "has_path", (node, node), {}
    yield "betweenness_centrality", (), {}
    yield "betweenness_centrality_subset", (list(G)[:3], list(G)[::2]), {}
    if not G.is_multigraph():  # declined there: NetworkX keys each parallel edge
        yield "edge_betweenness_centrality", (), {}
    yield "closeness_centrality", (), {}
    yield "harmonic_centrality", (), {}
    if not G.is_multigraph():  # declined there: NetworkX counts a neighbour once
        yield "eigenvector_centrality", (), {"max_iter": 1000}
        yield "katz_centrality", (), {"alpha": 0.01}
        yield "hits", (), {"max_iter": 1000}
        yield "eigenvector_centrality_numpy", (), {}
        yield "katz_centrality_numpy", (), {"alpha": 0.01}
    if not G.is_directed():  # declined there: NetworkX's directed clustering
        yield "triangles", (), {}
        if not G.is_multigraph():  # NetworkX refuses these there
            yield "clustering", (), {}
            yield "average_clustering", (), {}
            yield "transitivity", (), {}
    if not G.is_multigraph():  # declined there: parallel edges are one arc
        yield "degree_centrality", (), {}
        if G.is_directed():
            yield "in_degree_centrality", (), {}
            yield "out_degree_centrality", (), {}
    if not G.is_multigraph():  # declined there: NetworkX weighs parallel edges by the smallest
        for name in ("single_source_dijkstra", "single_source_dijkstra_path",
                     "single_source_dijkstra_path_length"):
            yield name, (node,), {"weight": None}
        for name in ("multi_source_dijkstra", "multi_source_dijkstra_path",
                     "multi_source_dijkstra_path_length"):
            yield name, ([node],), {"weight": None}
        yield "dijkstra_path", (node, node), {"weight": None}
        yield "dijkstra_path_length", (node, node), {"weight": None}
        yield "bidirectional_dijkstra", (node, node), {"weight": None}
        for name in ("single_source_bellman_ford", "single_source_bellman_ford_path",
                     "single_source_bellman_ford_path_length",
                     "bellman_ford_predecessor_and_distance"):
            yield name, (node,), {"weight": None}
        yield "bellman_ford_path", (node, node), {"weight": None}
        yield "bellman_ford_path_length", (node, node), {"weight": None}


def test_every_function_is_covered():
    from nx_libgraph import interface

    names = set()
    for kind in (nx.Graph, nx.DiGraph):
        names |= {name for name, _, _ in _function_calls(kind([(0, 1)]))}
    assert names == interface._FUNCTIONS


@pytest.mark.parametrize("kind", [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
@pytest.mark.parametrize("w", BAD_WEIGHTS, ids=lambda w: repr(w)[:12])
def test_weights_libgraph_cannot_take(kind, w):
    """A weighted call declines them (should_run says why, and by priority
    NetworkX runs it; with backend="libgraph" NetworkX raises
    NotImplementedError, caused by the backend's saying why); a call that
    reads no weights runs on libgraph and gives NetworkX's result."""
    from nx_libgraph import interface

    G = _weighted(kind, w)
    for name, args, kwargs in _function_calls(G):
        weighted = (name == "hits" and not _exact_weight(w)) or (
            name == "pagerank" and kwargs.get("weight", "weight") is not None)
        why = interface.should_run(name, (G, *args), kwargs)
        f = getattr(nx, name)
        want = _outcome(f, G, *args, **kwargs)
        if weighted:
            assert isinstance(why, str) and "weight" in why, (name, why)
            _declined_by_name(f, G, *args, why=f"{name}: edge attribute 'weight': ", **kwargs)
        else:
            assert why is True, (name, why)
            if name in ("pagerank", "betweenness_centrality", "edge_betweenness_centrality",
                        "betweenness_centrality_subset",
                        "harmonic_centrality",
                        "eigenvector_centrality", "katz_centrality",
                        "katz_centrality_numpy"):  # sums
                _close(f(G, *args, backend="libgraph", **kwargs), f(G, *args, **kwargs))
                continue
            if name == "hits":  # NetworkX's SVD and its own iteration fail at some of these
                for got in f(G, *args, backend="libgraph", **kwargs):  # (test_power_iterations)
                    assert math.isclose(sum(got.values()), 1.0) and min(got.values()) >= 0
                continue
            assert _outcome(f, G, *args, backend="libgraph", **kwargs) == want, name
        with _libgraph_first():  # NetworkX's own result where declined
            if name == "hits" and want[0] == "returns":  # ARPACK's random start: last bits
                for got, own in zip(f(G, *args, **kwargs), f(G, *args, **kwargs)):
                    _close(got, own)
                continue
            assert _outcome(f, G, *args, **kwargs) == want, name


@pytest.mark.parametrize("kind", [nx.Graph, nx.MultiDiGraph])
@pytest.mark.parametrize("w", GOOD_WEIGHTS, ids=repr)
def test_weights_libgraph_takes(kind, w):
    from nx_libgraph import interface

    G = _weighted(kind, w)
    assert interface.should_run("pagerank", (G,), {}) is True
    _close(nx.pagerank(G, backend="libgraph"), nx.pagerank(G))


# PageRank arguments NetworkX computes with (or fails on in its own way) that
# libgraph's PageRank refuses or reads otherwise: the backend declines them.
N = float("nan")
BAD_PAGERANK_ARGUMENTS = [
    {"alpha": 1.5}, {"alpha": -0.5}, {"alpha": N}, {"alpha": "0.5"},
    {"tol": -1.0}, {"tol": N}, {"tol": math.inf}, {"tol": "1e-6"},
    {"max_iter": -1}, {"max_iter": 2.5}, {"max_iter": 2**40},
    {"personalization": {0: -1.0, 1: 2.0}}, {"personalization": {0: N}},
    {"personalization": {0: math.inf}}, {"personalization": {0: 1e308, 1: 1e308}},
    {"personalization": {0: "1"}}, {"personalization": [1.0, 2.0]},
    {"nstart": {0: -1.0, 1: 2.0}}, {"nstart": {0: 0.0}}, {"nstart": {0: N}},
    {"dangling": {0: -1.0, 1: 2.0}}, {"dangling": {0: 0.0}}, {"dangling": {0: math.inf}},
]


@pytest.mark.parametrize("kwargs", BAD_PAGERANK_ARGUMENTS, ids=repr)
def test_pagerank_arguments_libgraph_cannot_take(kwargs):
    from nx_libgraph import interface

    G = nx.gnm_random_graph(250, 750, seed=10, directed=True)
    why = interface.should_run("pagerank", (G,), kwargs)
    assert isinstance(why, str) and why.startswith("pagerank: "), why
    _declined_by_name(nx.pagerank, G, why=why, **kwargs)
    want = _outcome(nx.pagerank, G, **kwargs)
    with _libgraph_first():
        assert _outcome(nx.pagerank, G, **kwargs) == want


@pytest.mark.parametrize("kwargs", [
    {"alpha": 0.0}, {"alpha": 1}, {"alpha": True}, {"max_iter": 0}, {"tol": 0.0, "max_iter": 3},
    {"personalization": {0: 1e-320, "not a node": N}}, {"personalization": {0: True}},
    {"nstart": {0: 2, 5: 1.0}}, {"dangling": {3: 0.5, "not a node": -1}}], ids=repr)
def test_pagerank_arguments_libgraph_takes(kwargs):
    from nx_libgraph import interface

    G = nx.gnm_random_graph(250, 750, seed=10, directed=True)
    assert interface.should_run("pagerank", (G,), kwargs) is True
    want = _outcome(nx.pagerank, G, **kwargs)
    got = _outcome(nx.pagerank, G, backend="libgraph", **kwargs)
    if want[0] == "raises":
        assert got == want
    else:
        _close(nx.pagerank(G, backend="libgraph", **kwargs), nx.pagerank(G, **kwargs))


# Traversal limits: real numbers of any kind libgraph's visit follows as
# NetworkX's comparisons do; anything else is declined.
TRAVERSAL_LIMITS = [
    ("bfs_edges", {"depth_limit": x}) for x in (math.inf, 10**30, N, -1, 0.5, True, "2")
] + [
    ("bfs_tree", {"depth_limit": x}) for x in (math.inf, N, "2")
] + [
    ("bfs_successors", {"depth_limit": x}) for x in (10**30, N)
] + [
    ("single_source_shortest_path_length", {"cutoff": x})
    for x in (math.inf, 10**30, N, -1, 0.5, True, "2")
] + [
    ("descendants_at_distance", {"distance": x})
    for x in (2.5, 2.0, math.inf, N, True, 10**30, -1, "2", None)
]


@pytest.mark.parametrize("name, kwargs", TRAVERSAL_LIMITS, ids=repr)
def test_traversal_limits(name, kwargs):
    from nx_libgraph import interface

    G = nx.gnm_random_graph(300, 600, seed=11)
    f = getattr(nx, name)
    want = _outcome(f, G, 0, **kwargs)
    (value,) = kwargs.values()
    if isinstance(value, (int, float)):
        assert interface.should_run(name, (G, 0), kwargs) is True
        assert _outcome(f, G, 0, backend="libgraph", **kwargs) == want
    else:
        why = interface.should_run(name, (G, 0), kwargs)
        assert isinstance(why, str) and why.endswith("is not a number"), why
        _declined_by_name(f, G, 0, why=why, **kwargs)
    with _libgraph_first():
        assert _outcome(f, G, 0, **kwargs) == want


def test_bfs_layers_without_sources():
    G = nx.path_graph(300)
    assert list(nx.bfs_layers(G, [], backend="libgraph")) == list(nx.bfs_layers(G, [])) == []


def test_a_failed_weighted_call_leaves_nothing_behind():
    """A negative weight: PageRank is declined, and no later call, weighted
    or not, fails or changes because of it, in either order."""
    for kind in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        H = kind(nx.path_graph(300))
        H.add_edges_from([(400, 401), (402, 402)])
        H.add_edge(0, 1, weight=-1)
        count = (nx.number_weakly_connected_components if H.is_directed()
                 else nx.number_connected_components)
        want = count(H)
        assert count(H, backend="libgraph") == want == 3
        with pytest.raises(NotImplementedError, match="libgraph"):
            nx.pagerank(H, backend="libgraph")
        assert count(H, backend="libgraph") == want
        assert list(nx.bfs_edges(H, 0, backend="libgraph")) == list(nx.bfs_edges(H, 0))
        _close(nx.pagerank(H, weight=None, backend="libgraph"), nx.pagerank(H, weight=None))
        with _libgraph_first():
            assert repr(nx.pagerank(H)) == repr(nx.pagerank(H, backend="networkx"))
        H.remove_edge(0, 1)  # NetworkX clears the cache
        H.add_edge(0, 1, weight=3.0)
        _close(nx.pagerank(H, backend="libgraph"), nx.pagerank(H))
        assert count(H, backend="libgraph") == want


@pytest.mark.parametrize("cache", [True, False])
def test_cached_conversions_serve_each_call_its_own_weights(cache):
    """Calls in sequence on one graph give NetworkX's results, whatever
    conversion an earlier call left in the cache."""
    old = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = cache
    try:
        for kind in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
            G = kind(nx.gnm_random_graph(300, 1000, seed=12, directed=kind().is_directed()))
            for i, e in enumerate(G.edges):
                G.edges[e]["weight"] = 1 + i % 7
                G.edges[e]["cost"] = 1 + i % 3
            G.add_edges_from([(0, 1), (0, 1)] if G.is_multigraph() else [])
            for weight in ("weight", None, "cost", "absent", "weight", None):
                _close(nx.pagerank(G, weight=weight, backend="libgraph"),
                       nx.pagerank(G, weight=weight))
            if G.is_directed():
                assert list(nx.weakly_connected_components(G, backend="libgraph")) == \
                    list(nx.weakly_connected_components(G))
            else:
                assert list(nx.connected_components(G, backend="libgraph")) == \
                    list(nx.connected_components(G))
            G.add_edge(5, 6, weight=-2)  # now declined
            with pytest.raises(NotImplementedError):
                nx.pagerank(G, backend="libgraph")
            _close(nx.pagerank(G, weight="cost", backend="libgraph"),
                   nx.pagerank(G, weight="cost"))
            G.remove_edge(5, 6)
            G.add_edge(7, 8, weight=40.0)
            _close(nx.pagerank(G, backend="libgraph"), nx.pagerank(G))
            assert list(nx.bfs_edges(G, 7, backend="libgraph")) == list(nx.bfs_edges(G, 7))
    finally:
        nx.config.cache_converted_graphs = old


def test_a_conversion_keeping_all_attributes_reads_the_one_asked_for():
    """NetworkX may hand a call a cached conversion made for other edge
    attributes (one that "preserves" them all): the call reads its own."""
    from nx_libgraph import interface

    G = nx.gnm_random_graph(250, 800, seed=13, directed=True)
    for i, e in enumerate(G.edges):
        G.edges[e]["w"] = 1 + i % 5
    conv = interface.convert_from_nx(G, preserve_edge_attrs=True)
    for weight in ("w", "weight", None):
        _close(interface.pagerank(conv, weight=weight, tol=1e-10),
               nx.pagerank(G, weight=weight, tol=1e-10))
