"""libgraph as a NetworkX backend (python/nx_libgraph): registration, the
conversion and its cache, and every function against NetworkX itself on
random graphs of many shapes (directed and not, multigraphs, string and
tuple keys, isolated nodes, self-loops, weights), on the CPU (and on the GPU
with LIBGRAPH_TEST_DEVICE=gpu)."""
import importlib.metadata
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
    return list(x)


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
    assert isinstance(interface.can_run("bfs_edges", (G, 0), {"sort_neighbors": sorted}), str)
    assert isinstance(interface.can_run("shortest_path_length", (G,), {"source": 0,
                                                                         "target": 5}), str)
    assert isinstance(interface.can_run("shortest_path_length", (G, 0), {"weight": "w"}), str)
    assert interface.can_run("shortest_path_length", (G, 0), {}) is True
    # asked for by name, a form it does not have is refused, not answered wrongly
    with pytest.raises(NotImplementedError):
        nx.shortest_path_length(G, 0, 5, backend="libgraph")
    with pytest.raises(NotImplementedError):
        nx.shortest_path_length(G, 0, weight="w", backend="libgraph")
    # sort_neighbors: refused when asked for by name, run by NetworkX by priority
    S = nx.Graph([(0, 3), (0, 1), (0, 2)] + [(i, i + 1) for i in range(3, 300)])
    with pytest.raises(NotImplementedError):
        nx.bfs_edges(S, 0, sort_neighbors=sorted, backend="libgraph")
    old = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["libgraph"]
    try:
        assert list(nx.bfs_edges(S, 0, sort_neighbors=sorted))[:3] == [(0, 1), (0, 2), (0, 3)]
        assert list(nx.bfs_edges(S, 0))[:3] == [(0, 3), (0, 1), (0, 2)]
    finally:
        nx.config.backend_priority.algos = old


def test_result_builders_check_their_input():
    """The C helpers behind the results (python/ext/nx_backend.c) refuse
    arrays that do not describe a visit of these nodes, and give exact
    results for ones that do."""
    import numpy as np
    from libgraph import _libgraph

    i32, i64 = (lambda *x: np.array(x, np.int32)), (lambda *x: np.array(x, np.int64))
    # the path 0 - 1 - 2 as a CSR in adjacency order, and 3 isolated
    off, idx = i64(0, 1, 3, 4, 4), i32(1, 0, 2, 1)
    order, parents, ends = _libgraph.bfs_visit(off, idx, [1])
    assert np.frombuffer(order, np.int32).tolist() == [1, 0, 2]
    assert np.frombuffer(parents, np.int32).tolist() == [-1, 1, 1]
    assert ends == [1, 3]
    nodes = ["a", "b", "c", "d"]
    assert _libgraph.levels(nodes, order, ends) == {"b": 0, "a": 1, "c": 1}
    assert _libgraph.tree_edges(nodes, order, parents) == [("b", "a"), ("b", "c")]
    assert _libgraph.tree_edges(nodes, order, parents, "reversed") == [("a", "b"), ("c", "b")]
    assert _libgraph.tree_edges(nodes, order, parents, "successors") == [("b", ["a", "c"])]
    with pytest.raises(ValueError, match="form"):
        _libgraph.tree_edges(nodes, order, parents, "sideways")
    assert _libgraph.take(nodes, order, 1, 3) == ["a", "c"]
    assert _libgraph.components(nodes, i32(0, 0, 0, 3)) == [{"a", "b", "c"}, {"d"}]
    with pytest.raises(ValueError, match="not a CSR"):
        _libgraph.bfs_visit(i64(0, 1, 5), idx, [0])
    with pytest.raises(ValueError, match="not in"):
        _libgraph.bfs_visit(off, idx, [4])
    with pytest.raises(ValueError, match="not a vertex"):
        _libgraph.bfs_visit(off, i32(1, 0, 7, 1), [1])
    with pytest.raises(ValueError, match="one int32 label"):
        _libgraph.components(nodes, i32(0, 0, 0))
    with pytest.raises(ValueError, match="not a node position"):
        _libgraph.components(nodes, i32(0, 0, 0, 9))
    with pytest.raises(ValueError, match="not a node"):
        _libgraph.levels(nodes, i32(1, 9), [1, 2])
    with pytest.raises(ValueError, match="one parent"):
        _libgraph.tree_edges(nodes, order, i32(-1))
    with pytest.raises(ValueError, match="not a node"):
        _libgraph.tree_edges(nodes, i32(0, 9), i32(-1, 0))
    with pytest.raises(ValueError, match="within the order"):
        _libgraph.take(nodes, order, 2, 5)
    with pytest.raises(ValueError, match="within the order"):
        _libgraph.take(nodes, order, -1, 1)
    with pytest.raises(ValueError, match="not a node"):
        _libgraph.take(nodes, i32(0, 9), 0, 2)
