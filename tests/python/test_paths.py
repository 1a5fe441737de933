"""Shortest paths: lg.sssp against NetworkX's Dijkstra (distances equal to
the last bit where the weights are exact float32 values), and the NetworkX
backend's Dijkstra and reachability functions against NetworkX's own
(results, their order, their errors)."""

import json
import random
import warnings

import networkx as nx
import numpy as np
import pytest

import libgraph as lg

CPU = "cpu"


@pytest.fixture(autouse=True)
def _quiet_cache_note():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(conversions to backend graphs|cached "
                                "graph is being used).*")
        yield
WEIGHTS = [0, 0.125, 0.5, 1.0, 1.25, 2.0, 3.5, 7.0]


def random_graph(seed, directed, n=None, zero_weights=True):
    rng = random.Random(seed)
    n = n or rng.randint(1, 60)
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(rng.sample(range(1000), n))
    nodes = list(G)
    for _ in range(rng.randint(0, 4 * n)):
        w = rng.choice(WEIGHTS if zero_weights else WEIGHTS[1:])
        G.add_edge(rng.choice(nodes), rng.choice(nodes), weight=w)
    return G, rng


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("directed", [False, True])
def test_sssp_equals_networkx(seed, directed):
    G, rng = random_graph(seed, directed)
    g = lg.Graph.from_networkx(G)
    s = rng.choice(list(G))
    want = nx.single_source_dijkstra_path_length(G, s)
    d, p = lg.sssp(g, s, predecessors=True, device=CPU)
    got = {g.nodes[v]: d[v] for v in range(len(d)) if d[v] != np.inf}
    assert got == want  # exactly: the weights are float32 values
    index = {node: i for i, node in enumerate(g.nodes)}
    for node, dist in want.items():
        v = index[node]
        if node == s:
            assert p[v] == v
            continue
        u = p[v]
        assert G.has_edge(g.nodes[u], node)
        assert d[u] + G[g.nodes[u]][node]["weight"] == dist
    for v in range(len(d)):
        if d[v] == np.inf:
            assert p[v] == -1
    # unweighted: BFS hop counts
    hops = nx.single_source_shortest_path_length(G, s)
    d1 = lg.sssp(g, s, weight=None, device=CPU)
    assert {g.nodes[v]: d1[v] for v in range(len(d1)) if d1[v] != np.inf} == hops


@pytest.mark.parametrize("seed", range(12))
def test_sssp_cutoff_target_and_sources(seed):
    G, rng = random_graph(100 + seed, seed % 2 == 0)
    g = lg.Graph.from_networkx(G)
    nodes = list(G)
    s, t = rng.choice(nodes), rng.choice(nodes)
    cutoff = rng.choice([0, 1, 2.5, 4])
    want = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
    d = lg.sssp(g, s, cutoff=cutoff, device=CPU)
    assert {g.nodes[v]: d[v] for v in range(len(d)) if d[v] != np.inf} == want
    full = nx.single_source_dijkstra_path_length(G, s)
    d = lg.sssp(g, s, target=t, device=CPU)
    limit = full.get(t, np.inf)
    assert {g.nodes[v]: d[v] for v in range(len(d)) if d[v] != np.inf} == {
        k: x for k, x in full.items() if x <= limit}
    many = nx.multi_source_dijkstra_path_length(G, {s, t})
    d = lg.sssp(g, [s, t, s], device=CPU)
    assert {g.nodes[v]: d[v] for v in range(len(d)) if d[v] != np.inf} == many
    r = lg.run("sssp", g, source=[s], delta=0.5, device=CPU)
    assert {g.nodes[v]: x for v, x in enumerate(r["distances"]) if x != np.inf} == full


def test_sssp_out_and_refusals():
    g = lg.Graph.from_edges([0, 1], [1, 2], weights=[1.0, 2.0], directed=True)
    out = np.zeros(3)
    assert lg.sssp(g, 0, out=out, device=CPU) is out
    assert out.tolist() == [0.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="cutoff -1 is not >= 0"):
        lg.sssp(g, 0, cutoff=-1)
    with pytest.raises(ValueError, match="source 7 is not a vertex"):
        lg.sssp(g, 7)
    with pytest.raises(ValueError, match="target 3 is not a vertex"):
        lg.sssp(g, 0, target=3)
    with pytest.raises(ValueError, match="delta"):
        lg.sssp(g, 0, delta=-1)
    with pytest.raises(TypeError, match="cutoff: expected a number"):
        lg.sssp(g, 0, cutoff="2")


# ---- the NetworkX backend ------------------------------------------------------------


def shape(x):
    """A result as lists, so that equality also compares dict order."""
    if isinstance(x, dict):
        return [(k, shape(v)) for k, v in x.items()]
    if isinstance(x, tuple):
        return tuple(shape(v) for v in x)
    return x


def both(f, *args, **kwargs):
    """NetworkX's result and the backend's, or the exceptions they raise."""
    out = []
    for backend in ("networkx", "libgraph"):
        try:
            out.append(shape(f(*args, backend=backend, **kwargs)))
        except (nx.NetworkXException, ValueError) as e:
            out.append((type(e), str(e)))
    return out


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [False, True])
def test_backend_dijkstra_equals_networkx(seed, directed):
    G, rng = random_graph(500 + seed, directed)
    nodes = list(G)
    s, t = rng.choice(nodes), rng.choice(nodes)
    cutoff = rng.choice([None, 0, 1, 2.5])
    calls = [
        (nx.single_source_dijkstra_path_length, (s,), {"cutoff": cutoff}),
        (nx.single_source_dijkstra_path, (s,), {"cutoff": cutoff}),
        (nx.single_source_dijkstra, (s,), {"cutoff": cutoff}),
        (nx.single_source_dijkstra, (s, t), {}),
        (nx.multi_source_dijkstra, ({s, t},), {"cutoff": cutoff}),
        (nx.multi_source_dijkstra_path, ([t, s],), {}),
        (nx.multi_source_dijkstra_path_length, ([t, s, t],), {}),
        (nx.dijkstra_path, (s, t), {}),
        (nx.dijkstra_path_length, (s, t), {}),
        (nx.dijkstra_path_length, (s, "missing"), {}),
    ]
    for f, args, kwargs in calls:
        for weight in ("weight", None):
            want, got = both(f, G, *args, weight=weight, **kwargs)
            assert got == want, f.__name__
            if weight is None:  # ints, as NetworkX's sums of 1
                assert repr(got) == repr(want)
    for f, args in [(nx.descendants, (s,)), (nx.ancestors, (s,)), (nx.has_path, (s, t)),
                    (nx.single_source_shortest_path, (s,)),
                    (nx.single_source_shortest_path, (s, 2))]:
        want, got = both(f, G, *args)
        assert got == want, f.__name__


def test_backend_errors_and_declines():
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 1.0, "weight")
    for f, args in [(nx.single_source_dijkstra_path_length, ("x",)),
                    (nx.dijkstra_path, ("x", 1)), (nx.multi_source_dijkstra, ([],))]:
        want, got = both(f, G, *args)
        assert got == want
    # float32 would round 0.1: the conversion keeps float64, so the sums are NetworkX's
    G.add_edge(0, 1, weight=0.1)
    want = nx.single_source_dijkstra_path_length(G, 0)
    assert want == {0: 0, 1: 0.1, 2: 1.1, 3: 2.1}
    got = nx.single_source_dijkstra_path_length(G, 0, backend="libgraph")
    assert list(got.items()) == list(want.items())
    G.add_edge(0, 1, weight=-1.0)  # Dijkstra-class: a negative weight is declined
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend="libgraph")
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, weight=lambda u, v, d: 1,
                                              backend="libgraph")
    M = nx.MultiGraph([(0, 1), (0, 1)])
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(M, 0, backend="libgraph")


def test_cli_path_to_a_target(lgraph, tmp_path):
    """lgraph sssp --target T --predecessors prints a shortest path to T, which
    NetworkX's Dijkstra confirms by its length (paths may tie)."""
    G, rng = random_graph(77, True, n=40, zero_weights=False)
    g = lg.Graph.from_edges(*zip(*G.edges()), weights=[d["weight"] for *_, d in G.edges(data=True)],
                            num_vertices=max(G) + 1, directed=True)
    path = tmp_path / "g.wel"
    g.save(str(path))
    s = next(iter(G))
    lengths = nx.single_source_dijkstra_path_length(G, s)
    t = max(lengths, key=lengths.get)
    out = lgraph("sssp", path, "--source", s, "--target", t, "--predecessors").stdout
    line = next(x for x in out.splitlines() if x.strip().startswith("path to"))
    nodes = [int(x) for x in line.split(":")[1].split()]
    assert nodes[0] == s and nodes[-1] == t
    assert sum(G[u][v]["weight"] for u, v in zip(nodes, nodes[1:])) == lengths[t]
    assert f"(length {lengths[t]:.17g}," in line or f"(length {float(lengths[t]):.17g}," in line
    unreachable = max(G) + 1  # an extra vertex with no arcs
    g2 = lg.Graph.from_edges(*zip(*G.edges()), num_vertices=unreachable + 1, directed=True)
    g2.save(str(tmp_path / "h.el"))
    out = lgraph("sssp", tmp_path / "h.el", "--source", s, "--target", unreachable,
                 "--predecessors").stdout
    assert f"no path to {unreachable}" in out


@pytest.mark.parametrize("seed", range(6))
def test_cli_path_command(lgraph, tmp_path, seed):
    """lgraph path: sssp to --target with its predecessors, the path printed
    source first with its length, and in --json; each path a real one of
    NetworkX's length (paths may tie), weighted and unweighted."""
    G, rng = random_graph(300 + seed, seed % 2 == 0, n=30, zero_weights=seed % 3 == 0)
    n = max(G) + 2  # the last vertex has no edges
    g = lg.Graph.from_edges(*zip(*G.edges()), weights=[d["weight"] for *_, d in G.edges(data=True)],
                            num_vertices=n, directed=G.is_directed())
    path = tmp_path / "g.wel"
    g.save(str(path))
    s = next(iter(G))
    for weighted in (True, False):
        lengths = (nx.single_source_dijkstra_path_length(G, s) if weighted else
                   nx.single_source_shortest_path_length(G, s))
        for t in list(lengths)[-3:]:
            args = ["path", path, "--source", s, "--target", t, "--json"]
            out = lgraph(*args, *([] if weighted else ["--unweighted"])).stdout.splitlines()
            line = next(x for x in out if x.startswith("path from"))
            assert line.startswith(f"path from {s} to {t}: length {float(lengths[t]):.17g}")
            nodes = [int(x) for x in next(x for x in out if x.startswith("  ")).split(":")[1]
                     .split()]
            assert nodes[0] == s and nodes[-1] == t and all(G.has_edge(u, v) for u, v in
                                                            zip(nodes, nodes[1:]))
            cost = (sum(G[u][v]["weight"] for u, v in zip(nodes, nodes[1:])) if weighted
                    else len(nodes) - 1)
            assert cost == lengths[t]
            record = json.loads(out[-1])
            assert record["command"] == "path" and record["path"] == nodes
            assert record["length"] == lengths[t]
    out = lgraph("path", path, "--source", s, "--target", n - 1, "--json").stdout.splitlines()
    assert f"path from {s} to {n - 1}: none ({n - 1} is not reachable)" in out[2]
    assert json.loads(out[-1])["path"] is None


@pytest.mark.parametrize("seed", range(4))
def test_cli_weights_float64(lgraph, tmp_path, seed):
    """lgraph --weights float64 reads a text file's decimals as Python does:
    the path's length is NetworkX's to the last bit (tenths: float32 would
    round them), in the summary and in --json."""
    rng = random.Random(seed)
    G = nx.gnm_random_graph(40, 120, seed=seed, directed=seed % 2 == 1)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.choice([0.1, 0.2, 0.3, 0.7, 1.1, 2.05])
    path = tmp_path / "g.wel"
    lg.Graph.from_networkx(G).save(str(path), names=False)  # float64: 17 digits
    lengths = nx.single_source_dijkstra_path_length(G, 0)
    for t in list(lengths)[-4:]:
        out = lgraph("path", path, "--target", t, "--weights", "float64", "--json").stdout
        assert "weighted (float64)" in out.splitlines()[0]
        line = next(x for x in out.splitlines() if x.startswith("path from"))
        assert line.startswith(f"path from 0 to {t}: length ")
        assert float(line.split("length ")[1].split(",")[0]) == lengths[t]  # %.17g: exact
        assert json.loads(out.splitlines()[-1])["length"] == lengths[t]
    proc = lgraph("path", path, "--target", 1, "--weights", "double", check=False)
    assert proc.returncode == 2 and "bad value 'double' for --weights" in proc.stderr


def test_cli_path_command_needs_a_target(lgraph, tmp_path):
    proc = lgraph("path", "kron:6", check=False)
    assert proc.returncode == 2 and "lgraph path: --target is required" in proc.stderr
    text = lgraph("path", "--help").stdout
    assert text.startswith("usage: lgraph path INPUT") and "--predecessors" not in text
    assert "--target N           required:" in text
    assert "path      The shortest path between two vertices" in lgraph("--help").stdout


# ---- Bellman-Ford: negative weights ---------------------------------------------------


def signed_graph(seed, directed, decimals):
    """A random graph whose weights may be negative: integer potentials p
    turn w >= 0 into w + p(u) - p(v) (no negative cycle in a directed graph;
    an undirected graph's negative edge is one), or decimals (0.1, 0.7:
    sums float32 could not make) with a few negative ones."""
    rng = random.Random(seed)
    n = rng.randint(1, 50)
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(rng.sample(range(1000), n))
    nodes = list(G)
    p = {v: rng.randint(0, 6) for v in nodes}
    for _ in range(rng.randint(0, 4 * n)):
        u, v = rng.choice(nodes), rng.choice(nodes)
        if decimals:
            w = rng.choice([0.1, 0.2, 0.7, 1.3, 2.0]) - (0.3 if rng.random() < 0.1 else 0.0)
        else:
            w = rng.randint(0, 4) + (p[u] - p[v] if directed else 0)
        if u == v:
            w = abs(w)
        G.add_edge(u, v, weight=w)
    return G, rng


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("directed", [False, True])
def test_backend_bellman_ford_equals_networkx(seed, directed):
    """Every Bellman-Ford function: NetworkX's result in its order (the
    distances, each path, the predecessor lists), or the same exception
    (NetworkXUnbounded for a negative cycle, NodeNotFound, NetworkXNoPath)."""
    G, rng = signed_graph(seed, directed, seed % 3 == 2)
    nodes = list(G)
    s, t = rng.choice(nodes), rng.choice(nodes)
    calls = [
        (nx.single_source_bellman_ford_path_length, (s,), {}),
        (nx.single_source_bellman_ford_path, (s,), {}),
        (nx.single_source_bellman_ford, (s,), {}),
        (nx.single_source_bellman_ford, (s, t), {}),
        (nx.bellman_ford_path, (s, t), {}),
        (nx.bellman_ford_path_length, (s, t), {}),
        (nx.bellman_ford_predecessor_and_distance, (s,), {}),
        (nx.bellman_ford_predecessor_and_distance, (s,), {"heuristic": False}),
        (nx.single_source_bellman_ford, (s,), {"weight": None}),
        (nx.bellman_ford_path_length, ("missing", t), {}),
        (nx.single_source_bellman_ford, (s, "missing"), {}),
    ]
    for f, args, kwargs in calls:
        want, got = both(f, G, *args, **kwargs)
        assert got == want, (f.__name__, args, kwargs)


def test_backend_bellman_ford_cycles_and_declines():
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 0, {"weight": 1}),
                    (3, 0, {"weight": 2})])
    for f in (nx.single_source_bellman_ford_path_length, nx.single_source_bellman_ford):
        with pytest.raises(nx.NetworkXUnbounded, match="Negative cycle detected"):
            f(G, 3, backend="libgraph")
    G.add_edge(4, 4, weight=-1)  # a negative self-loop anywhere: NetworkX's own first check
    want, got = both(nx.bellman_ford_predecessor_and_distance, G, 4)
    assert got == want and want[0] is nx.NetworkXUnbounded
    # weight functions and multigraphs: NetworkX runs them
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford(G, 3, weight=lambda u, v, d: 1, backend="libgraph")
    M = nx.MultiDiGraph([(0, 1), (0, 1)])
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford(M, 0, backend="libgraph")
    H = nx.path_graph(3)
    H[0][1]["weight"] = float("nan")
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford(H, 0, backend="libgraph")


@pytest.mark.parametrize("seed", range(20))
def test_sssp_bellman_ford_equals_networkx(seed):
    """lg.sssp on negative weights (Bellman-Ford) against NetworkX's, float64
    and decimal weights included: bit-equal distances, tight predecessors."""
    G, rng = signed_graph(900 + seed, True, seed % 2 == 1)
    g = lg.Graph.from_networkx(G)
    assert g.weight_dtype == "float64"
    s = rng.choice(list(G))
    want = nx.single_source_bellman_ford_path_length(G, s)
    d, p = lg.sssp(g, s, predecessors=True, device=CPU)
    got = {g.nodes[v]: d[v] for v in range(len(d)) if d[v] != np.inf}
    assert got == want
    for v in range(len(d)):
        if d[v] != np.inf and g.nodes[v] != s:
            u = g.nodes[p[v]]
            assert want[u] + G[u][g.nodes[v]]["weight"] == want[g.nodes[v]]


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("directed", [False, True])
def test_backend_shortest_path_forms_equal_networkx(seed, directed):
    """shortest_path and shortest_path_length in each form the backend
    takes: NetworkX's result, order and errors; the others declined."""
    G, rng = signed_graph(300 + seed, directed, False)
    if seed % 2:
        G, rng = random_graph(300 + seed, directed)
    nodes = list(G)
    s, t = rng.choice(nodes), rng.choice(nodes)
    forms = [{"source": s}, {"source": s, "target": t}, {"source": "missing", "target": t},
             {"source": s, "target": "missing"}, {"source": s, "weight": "weight"},
             {"source": s, "weight": "weight", "method": "bellman-ford"},
             {"source": s, "target": t, "weight": "weight"},
             {"source": s, "target": t, "weight": "weight", "method": "bellman-ford"},
             {"source": s, "method": "floyd"}]
    if not directed:
        forms += [{"target": t}, {"target": t, "weight": "weight", "method": "bellman-ford"}]
    for f in (nx.shortest_path, nx.shortest_path_length):
        for kwargs in forms:
            if kwargs.get("method") != "bellman-ford" and "weight" in kwargs and \
                    any(d["weight"] < 0 for *_, d in G.edges(data=True)):
                continue  # Dijkstra-class on negative weights: declined (NetworkX's own)
            want, got = both(f, G, **kwargs)
            assert got == want, (f.__name__, kwargs)
    for f in (nx.shortest_path_length, nx.bidirectional_shortest_path):
        for pair in ((s, t), (t, s), (s, s), (s, "missing"), ("missing", t)):
            want, got = both(f, G, *pair)
            assert got == want, (f.__name__, pair)
    for kwargs in ({}, {"target": t} if directed else {}):
        with pytest.raises(NotImplementedError):
            nx.shortest_path(G, backend="libgraph", **kwargs)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", ["int", "float", "missing"])
def test_backend_distance_types_equal_networkx(seed, kind):
    """Int weights (or none: NetworkX's 1) give int distances, as NetworkX's
    sums of ints are; float weights floats: each value's type, not only its
    value, is NetworkX's, in every Dijkstra and Bellman-Ford form."""
    rng = random.Random(seed)
    G = nx.gnm_random_graph(rng.randint(2, 40), rng.randint(0, 120), seed=seed,
                            directed=seed % 2 == 1)
    for u, v in G.edges():
        if kind != "missing":
            G[u][v]["weight"] = rng.randint(0, 9) if kind == "int" else rng.choice([0.5, 2.0, 3.25])
    s, t = rng.choice(list(G)), rng.choice(list(G))

    def typed(x):  # both()'s shapes: lists and tuples
        if isinstance(x, (list, tuple)):
            return type(x)(typed(v) for v in x)
        return (type(x).__name__, x) if isinstance(x, (int, float)) else x

    calls = [(nx.single_source_dijkstra_path_length, (s,)),
             (nx.multi_source_dijkstra_path_length, ({s, t},)),
             (nx.single_source_dijkstra, (s,)), (nx.single_source_dijkstra, (s, t)),
             (nx.dijkstra_path_length, (s, t)), (nx.bidirectional_dijkstra, (s, t)),
             (nx.single_source_bellman_ford_path_length, (s,)),
             (nx.single_source_bellman_ford, (s, t)), (nx.bellman_ford_path_length, (s, t))]
    for f, args in calls:
        want, got = both(f, G, *args)
        assert typed(got) == typed(want), f.__name__
    want, got = both(nx.shortest_path_length, G, s, weight="weight")
    assert typed(got) == typed(want)


TENTHS = [0, 0.1, 0.2, 0.3, 0.7, 1, 2, 3]  # sums that round: the order of additions shows


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("directed", [False, True])
def test_backend_bidirectional_dijkstra_equals_networkx(seed, directed):
    """bidirectional_dijkstra and shortest_path's weighted pair form: NetworkX's
    distance to the bit and its path among equal ones (small integer weights
    tie often, tenths round), unreachable pairs, a pair of one node, unknown
    nodes, weight=None."""
    rng = random.Random(seed)
    n = rng.randint(2, 50)
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(rng.sample(range(1000), n))
    nodes = list(G)
    weights = TENTHS if seed % 2 else [1, 1, 2]
    for _ in range(rng.randint(0, 3 * n)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes), weight=rng.choice(weights))
    pairs = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(8)]
    pairs += [(nodes[0], nodes[0]), (nodes[0], "missing"), ("missing", nodes[0])]
    for s, t in pairs:
        for weight in ("weight", None):
            want, got = both(nx.bidirectional_dijkstra, G, s, t, weight=weight)
            assert got == want, (s, t, weight)
        want, got = both(nx.shortest_path, G, s, t, weight="weight")
        assert got == want, (s, t)


def test_bidirectional_dijkstra_paths_of_both_networkx_versions():
    """Where a later, shorter arc to the meeting vertex leaves the sum unchanged
    by rounding, NetworkX before 3.6 returns the path it copied when it chose
    that vertex and 3.6 the one its predecessors hold at the end.  Here the
    forward search first reaches w at 1, the backward one at 2**53 (the best:
    2**53 + 1 rounds to 2**53), then the forward one at 0.5 through x
    (2**53 + 0.5 is 2**53 too, not shorter): s w t before 3.6, s x w t from
    3.6.  The backend follows the running NetworkX; nxkit does either."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([("s", "w", 1.0), ("s", "x", 0.25), ("x", "w", 0.25),
                               ("w", "t", 2.0 ** 53)])
    assert nx.bidirectional_dijkstra(G, "s", "t", backend="libgraph") == \
        nx.bidirectional_dijkstra(G, "s", "t")
    nodes = list(G)
    index = {u: i for i, u in enumerate(nodes)}
    out = [[(index[v], d["weight"]) for v, d in G._succ[u].items()] for u in nodes]
    inn = [[(index[v], d["weight"]) for v, d in G._pred[u].items()] for u in nodes]

    def csr(rows):
        off = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
        idx = np.array([v for r in rows for v, _ in r], np.int32)
        return off.tobytes(), idx.tobytes(), np.array([w for r in rows for _, w in r]).tobytes()

    for snapshot, want in ((True, ["s", "w", "t"]), (False, ["s", "x", "w", "t"])):
        d, path = lg.nxkit.bidirectional_dijkstra(*csr(out), *csr(inn), index["s"], index["t"],
                                                  snapshot)
        assert d == 2.0 ** 53
        assert [nodes[v] for v in np.frombuffer(path, np.int32)] == want, snapshot


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("directed", [False, True])
def test_library_shortest_path(seed, directed):
    """lg.shortest_path: every path starts at the source, follows edges, and
    is as long as NetworkX's distance (weighted, unweighted, negative
    weights); unreached targets are a ValueError."""
    G, rng = (random_graph(700 + seed, directed) if seed % 3 else
              signed_graph(700 + seed, True, False))
    g = lg.Graph.from_networkx(G)
    s = rng.choice(list(G))
    for weight in ("weight", None):
        try:
            want = (nx.single_source_bellman_ford_path_length(G, s, weight=weight)
                    if weight else nx.single_source_shortest_path_length(G, s))
        except nx.NetworkXUnbounded:
            with pytest.raises(lg.Unbounded):
                lg.shortest_path(g, s, weight=weight, device=CPU)
            continue
        paths = lg.shortest_path(g, s, weight=weight, device=CPU)
        assert set(paths) == set(want)
        for node, path in paths.items():
            assert path[0] == s and path[-1] == node
            length = sum(G[u][v]["weight"] if weight else 1 for u, v in zip(path, path[1:]))
            assert length == want[node]
            # one pair: a bidirectional search (non-negative weights) or sssp to the
            # target, on the default device and the CPU: any path of that length
            for device, method in ((None, "auto"), (CPU, "auto"), (CPU, "bellman-ford")):
                pair = lg.shortest_path(g, s, node, weight=weight, device=device, method=method)
                assert pair[0] == s and pair[-1] == node
                assert all(G.has_edge(u, v) for u, v in zip(pair, pair[1:]))
                assert sum(G[u][v]["weight"] if weight else 1
                           for u, v in zip(pair, pair[1:])) == want[node]
        missing = [v for v in G if v not in want]
        if missing:
            with pytest.raises(ValueError, match="no path from"):
                lg.shortest_path(g, s, missing[0], weight=weight, device=CPU)
