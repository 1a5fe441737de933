"""Eigenvector, Katz and HITS: the module's functions and the NetworkX
backend's against NetworkX's own on random graphs (directed and
undirected, weighted and not, disconnected, stars, paths, self-loops),
with nstart and per-node beta; values to 1e-12 (the iterations are
NetworkX's, summed in another order; hits to NetworkX's SVD within its
tol); the _numpy forms' eigenvector and linear solve to 1e-9; the
float32 forms against the float64 ones; not converging; what the backend
declines."""

import math

import networkx as nx
import numpy as np
import pytest

import libgraph as lg
from test_centrality import close, declined, random_graph

CPU = {"device": "cpu"}


def near(got, want, tol):
    assert list(got) == list(want)
    for v in want:
        assert got[v] == pytest.approx(want[v], abs=tol), v


def converging(f, *args, **kwargs):
    """f's result, or None when NetworkX's own iteration does not converge."""
    try:
        return f(*args, **kwargs)
    except nx.PowerIterationFailedConvergence:
        return None


@pytest.mark.parametrize("seed", range(40))
def test_backend_equals_networkx(seed):
    for directed in (False, True):
        G = random_graph(seed, directed)
        if seed % 4 == 0 and len(G):
            v = next(iter(G))
            G.add_edge(v, v, weight=2, w=0.5)
        for weight in (None, "weight", "w"):
            want = converging(nx.eigenvector_centrality, G, max_iter=500, weight=weight)
            if want is None:
                with pytest.raises(nx.PowerIterationFailedConvergence):
                    nx.eigenvector_centrality(G, max_iter=500, weight=weight, backend="libgraph")
            else:
                close(nx.eigenvector_centrality(G, max_iter=500, weight=weight,
                                                backend="libgraph", **CPU), want)
            beta = {v: 1 + (i % 3) for i, v in enumerate(G)}
            for kw in ({"alpha": 0.02}, {"alpha": 0.01, "beta": beta, "normalized": False}):
                want = converging(nx.katz_centrality, G, weight=weight, **kw)
                if want is not None:
                    close(nx.katz_centrality(G, weight=weight, backend="libgraph", **kw, **CPU),
                          want)
        if G.number_of_edges():
            want = converging(nx.algorithms.link_analysis.hits_alg._hits_python, G,
                              max_iter=1000)
            if want is not None:
                got = nx.hits(G, max_iter=1000, backend="libgraph", **CPU)
                close(got[0], want[0])
                close(got[1], want[1])


def test_hits_equals_the_svd():
    G = nx.gnp_random_graph(300, 0.03, seed=4, directed=True)
    h, a = nx.hits(G)
    gh, ga = nx.hits(G, backend="libgraph", **CPU)
    near(gh, h, 1e-9)
    near(ga, a, 1e-9)


def test_module_functions():
    G = nx.gnp_random_graph(80, 0.06, seed=9, directed=True)
    for u, v in G.edges:
        G[u][v]["weight"] = (u + 2 * v) % 4 + 1
    g = lg.Graph.from_networkx(G)
    start = {v: 1 + v % 5 for v in G}
    x = lg.eigenvector_centrality(g, nstart=start, weight="weight")
    want = nx.eigenvector_centrality(G, nstart=start, weight="weight")
    assert x.dtype == np.float64 and x.shape == (80,)
    assert np.allclose(x, [want[v] for v in G], rtol=0, atol=1e-12)
    x = lg.katz_centrality(g, 0.03, np.arange(80) % 2 + 1.0)
    want = nx.katz_centrality(G, 0.03, {v: v % 2 + 1.0 for v in G})
    assert np.allclose(x, [want[v] for v in G], rtol=0, atol=1e-12)
    out = (np.empty(80), np.empty(80))
    h, a = lg.hits(g, out=out)
    assert h is out[0] and a is out[1]
    wh, wa = nx.algorithms.link_analysis.hits_alg._hits_python(G)
    assert np.allclose(h, [wh[v] for v in G], rtol=0, atol=1e-12)
    assert np.allclose(a, [wa[v] for v in G], rtol=0, atol=1e-12)
    # by node name: the hubs as a Series, the authorities as a dict
    s = g.to_pandas(h, "hubs")
    assert s.name == "hubs" and list(s.index) == list(G)
    assert all(s[v] == pytest.approx(wh[v], abs=1e-12) for v in G)
    d = g.to_dict(a)
    assert list(d) == list(G) and all(d[v] == pytest.approx(wa[v], abs=1e-12) for v in G)


@pytest.mark.parametrize("seed", range(12))
def test_float32_forms(seed):
    """dtype="float32" (and lg.run's precision "float32"): float arrays
    within a relative 1e-4 of the float64 results' largest entry where the
    two stopped within an iteration of each other (each stops by its own
    change test: on a slowly converging graph, a directed path's, the
    float iterate's largest entries stop moving once a step is below their
    rounding, and it stops hundreds of iterations early; test_eigenvector.c
    compares equal iterations at 1e-5), in out arrays of float32."""
    compared = edgeless = 0
    for directed in (False, True):
        G = random_graph(seed, directed)
        if len(G) == 0 or G.number_of_edges() == 0:
            edgeless += 1
            continue
        g = lg.Graph.from_networkx(G)
        n = g.num_vertices
        for name, kw, outs in (("eigenvector_centrality", {}, ["centrality"]),
                               ("katz_centrality", {"alpha": 0.02}, ["centrality"]),
                               ("hits", {"tol": 1e-5}, ["hubs", "authorities"])):
            try:
                want = lg.run(name, g, use_weights=True, max_iter=3000, **kw, device="cpu")
            except lg.NotConverged:
                continue
            got = lg.run(name, g, use_weights=True, max_iter=3000, precision="float32", **kw,
                         device="cpu")
            for k in outs:
                assert got[k].dtype == np.float32 and got[k].shape == (n,)
            if abs(got["iterations"] - want["iterations"]) > 1:
                continue
            compared += 1
            for k in outs:
                w = want[k]
                assert np.abs(got[k] - w).max() <= 1e-4 * np.abs(w).max(), (name, k, directed)
            f = getattr(lg, name)
            args = dict(kw, max_iter=3000, weight="weight", device="cpu")
            x = f(g, dtype="float32", **args)
            x = x if name == "hits" else (x,)
            assert all(np.array_equal(a, got[k]) for a, k in zip(x, outs))
            out = tuple(np.empty(n, np.float32) for _ in outs)
            r = f(g, dtype=np.float32, out=out if name == "hits" else out[0], **args)
            assert (r == out) if name == "hits" else r is out[0]
            assert all(np.array_equal(a, got[k]) for a, k in zip(out, outs))
    assert compared > 0 or edgeless == 2


def test_float32_refusals():
    g = lg.Graph.from_networkx(nx.path_graph(5))
    with pytest.raises(ValueError, match="dtype: must be 'float64' or 'float32'"):
        lg.katz_centrality(g, dtype="float16")
    with pytest.raises(TypeError, match="float32 array"):
        lg.eigenvector_centrality(g, dtype="float32", out=np.empty(5))
    with pytest.raises(TypeError, match="float64 array"):
        lg.hits(g, out=(np.empty(5, np.float32), np.empty(5, np.float32)))


def test_not_converging():
    g = lg.Graph.from_networkx(nx.path_graph(50))
    with pytest.raises(lg.NotConverged) as e:
        lg.hits(g, max_iter=2)
    assert e.value.hubs.shape == (50,) and e.value.iterations == 2 and not e.value.converged
    with pytest.raises(lg.NotConverged) as e:
        lg.katz_centrality(g, alpha=0.9)  # above 1 / the largest eigenvalue (about 2)
    assert e.value.centrality.shape == (50,) and e.value.iterations == 1000
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.katz_centrality(nx.path_graph(50), 0.9, backend="libgraph")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.hits(nx.path_graph(50), max_iter=1, backend="libgraph")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.eigenvector_centrality(nx.path_graph(50), max_iter=0, backend="libgraph")


def test_errors():
    g = lg.Graph.from_networkx(nx.path_graph(5))
    with pytest.raises(ValueError, match="nstart sums to 0"):
        lg.eigenvector_centrality(g, nstart=np.zeros(5))
    with pytest.raises(ValueError, match="max_iter -1 < 0"):
        lg.katz_centrality(g, max_iter=-1)
    with pytest.raises(ValueError, match="no vertices"):
        lg.eigenvector_centrality(lg.Graph.from_networkx(nx.Graph()))
    with pytest.raises(ValueError, match="out: expected a pair"):
        lg.hits(g, out=(np.empty(5),))
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.eigenvector_centrality(nx.Graph(), backend="libgraph")
    with pytest.raises(nx.NetworkXError, match="all zero"):
        nx.eigenvector_centrality(nx.path_graph(5), nstart={v: 0 for v in range(5)},
                                  backend="libgraph")
    with pytest.raises(nx.NetworkXError, match="beta dictionary"):
        nx.katz_centrality(nx.path_graph(5), beta={0: 1}, backend="libgraph")
    assert nx.katz_centrality(nx.Graph(), backend="libgraph") == {}
    assert nx.hits(nx.DiGraph(), backend="libgraph") == ({}, {})


def test_backend_declines_what_it_cannot_match():
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.raises(nx.NetworkXNotImplemented):  # NetworkX's own refusal
        nx.eigenvector_centrality(M, backend="libgraph")
    declined(lambda: nx.hits(M, backend="libgraph"), "multigraph")
    N = nx.DiGraph([(0, 1, {"weight": -1.0}), (1, 2, {"weight": 1.0})])
    declined(lambda: nx.hits(N, backend="libgraph"), "negative")
    declined(lambda: nx.katz_centrality(N, weight=lambda u, v, d: 1, backend="libgraph"),
             "function")


def connected_part(G):
    """G's largest (strongly) connected part: what eigenvector_centrality_numpy takes."""
    parts = nx.strongly_connected_components(G) if G.is_directed() else nx.connected_components(G)
    return G.subgraph(max(parts, key=len)).copy()


@pytest.mark.parametrize("seed", range(20))
def test_numpy_forms_equal_networkx(seed):
    """eigenvector_centrality_numpy (ARPACK's eigenvector) and
    katz_centrality_numpy (a linear solve) against NetworkX's, to 1e-9: the
    backend's iterations run to n * 1e-14."""
    for directed in (False, True):
        G = connected_part(random_graph(seed, directed))
        if len(G) < 3:  # ARPACK's k=1 needs 3 nodes; NetworkX's solve fails on 1
            continue
        for weight in (None, "weight", "w"):
            want = nx.eigenvector_centrality_numpy(G, weight=weight)
            near(nx.eigenvector_centrality_numpy(G, weight=weight, backend="libgraph", **CPU),
                 want, 1e-9)
            beta = {v: 1 + (i % 3) for i, v in enumerate(reversed(list(G)))}
            for kw in ({"alpha": 0.02}, {"alpha": 0.01, "beta": beta},
                       {"alpha": 0.01, "beta": beta, "normalized": False},
                       {"alpha": 0.01, "beta": -2.0}):
                A = nx.to_numpy_array(G, weight=weight)
                if kw["alpha"] * max(abs(np.linalg.eigvals(A))) > 0.9:
                    # the iteration converges slowly or not at all: declined
                    # when it diverges (NetworkX's solve answers even then)
                    continue
                want = nx.katz_centrality_numpy(G, weight=weight, **kw)
                near(nx.katz_centrality_numpy(G, weight=weight, backend="libgraph", **kw, **CPU),
                     want, 1e-9)


def test_numpy_forms_errors_and_declines():
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.eigenvector_centrality_numpy(nx.Graph(), backend="libgraph")
    with pytest.raises(nx.AmbiguousSolution, match="disconnected"):
        nx.eigenvector_centrality_numpy(nx.Graph([(0, 1), (2, 3)]), backend="libgraph")
    with pytest.raises(nx.AmbiguousSolution, match="disconnected"):
        nx.eigenvector_centrality_numpy(nx.DiGraph([(0, 1), (1, 2)]), backend="libgraph")
    assert nx.katz_centrality_numpy(nx.Graph(), backend="libgraph") == {}
    with pytest.raises(nx.NetworkXError, match="beta dictionary"):
        nx.katz_centrality_numpy(nx.path_graph(5), beta={0: 1}, backend="libgraph")
    with pytest.raises(nx.NetworkXError, match="beta must be a number"):
        nx.katz_centrality_numpy(nx.path_graph(5), beta="1", backend="libgraph")
    # alpha above 1 / the largest eigenvalue (about 2): the iteration diverges, the solve answers
    declined(lambda: nx.katz_centrality_numpy(nx.path_graph(50), alpha=0.9, backend="libgraph"),
             "did not converge")
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.raises(nx.NetworkXNotImplemented):  # NetworkX's own refusal
        nx.katz_centrality_numpy(M, backend="libgraph")
    declined(lambda: nx.eigenvector_centrality_numpy(M, backend="libgraph"), "multigraph")
