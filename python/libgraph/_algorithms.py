"""The algorithms over the extension: NetworkX-shaped functions for BFS,
PageRank, connected components (weak and strong) and shortest paths, and
run(), any algorithm by name from
its descriptor (algorithms() lists them).  The extension converts each
parameter by its descriptor's type and the library checks what it means,
once; this file maps what is Python's (node keys, dicts of node values,
dtype names, device= strings, GPU arrays) onto the descriptor's
parameters."""

import ctypes
import operator
import sys
from typing import NamedTuple

from . import _libgraph
from ._arrays import wrap
from ._checks import INT_MAX as _INT_MAX, flag, integer, real
from ._device import context
from ._gpu_arrays import host_out, into_device, on_device, to_host
from ._graph import Graph, _readable

# The package's names from this file (libgraph/__init__.py exports them).
__all__ = ["bfs", "pagerank", "PageRankInfo", "connected_components",
           "number_connected_components", "strongly_connected_components",
           "number_strongly_connected_components", "sssp", "shortest_path",
           "betweenness_centrality", "edge_betweenness_centrality",
           "betweenness_centrality_subset", "closeness_centrality",
           "harmonic_centrality",
           "eigenvector_centrality", "katz_centrality", "hits", "triangles", "clustering",
           "average_clustering", "transitivity", "run",
           "algorithms",
           "last_backend",
           "last_backend_reason", "build_info"]


def _graph(g, networkx_call):
    """g, a libgraph.Graph; else TypeError saying how to make one of what g
    is.  networkx_call: NetworkX's function for the same result, with its
    arguments, for a NetworkX graph ("pagerank(G)")."""
    if isinstance(g, Graph):
        return g
    kind = type(g).__name__
    nx, sparse, pd = (sys.modules.get(m) for m in ("networkx", "scipy.sparse", "pandas"))
    if (nx and isinstance(g, nx.Graph)) or type(g).__module__.startswith("networkx."):
        if getattr(g, "is_directed", lambda: False)():  # NetworkX's components are weak ones
            networkx_call = networkx_call.replace("connected_", "weakly_connected_")
        how = (f"a networkx.{kind}: convert it with libgraph.Graph.from_networkx(G) (its node "
               f"keys become the names), or run NetworkX's own function on libgraph through "
               f"the NetworkX backend: networkx.{networkx_call[:-1]}, backend=\"libgraph\")")
    elif sparse and sparse.issparse(g):
        how = (f"a scipy.sparse {kind}: convert it with libgraph.Graph.from_scipy(A) "
               f"(directed=True unless the matrix is symmetric)")
    elif pd and isinstance(g, pd.DataFrame):
        how = (f"a pandas DataFrame: build a graph of its edge list with "
               f"libgraph.Graph.from_pandas(df, source=\"source\", target=\"target\")")
    else:
        how = (f"{kind}: build one with libgraph.Graph.from_edges, from_csr, from_scipy, "
               f"from_pandas, from_networkx or load")
    raise TypeError(f"G: expected a libgraph.Graph, not {how}")


def _span(x):
    """[first, end) addresses of a writable C-contiguous host buffer, None
    for anything else (no buffer, empty, read-only or strided: the extension
    refuses those as out=)."""
    try:
        view = memoryview(x)
    except TypeError:
        return None
    if view.readonly or not view.c_contiguous or view.nbytes == 0:
        return None
    first = ctypes.addressof(ctypes.c_char.from_buffer(view.cast("B")))
    return first, first + view.nbytes


def _check_disjoint(out, gpu_out, parents_out, gpu_parents):
    """ValueError when out= and parents_out= (host or GPU arrays, as host_out
    split them) overlap: the kernel would write distances and parents into
    the same memory and return garbage in both."""
    a, b = _span(out), _span(parents_out)
    if gpu_out is not None and gpu_parents is not None:
        da, db = gpu_out[1], gpu_parents[1]
        if da.device == db.device:
            a, b = (da.ptr, da.ptr + da.nbytes), (db.ptr, db.ptr + db.nbytes)
    if a is not None and b is not None and a[0] < b[1] and b[0] < a[1]:
        raise ValueError("out and parents_out share memory: give parents_out an array of "
                         "its own")


def _result(buf, out):
    """The caller's out array itself when given, else a view of buf."""
    return out if out is not None else wrap(buf)


def bfs(G, source, *, parents=False, max_depth=None, direction_alpha=15, direction_beta=18,
        device=None, out=None, parents_out=None):
    """Breadth-first search from source (a vertex, or a sequence of them, all
    at distance 0) along out-edges; direction-optimizing (Beamer et al.).

    Returns distances (int32, -1 for unreached vertices or those beyond
    max_depth hops), or (distances, parents) with parents=True: parents[v] is
    an in-neighbour u of v with distances[u] + 1 == distances[v], a source is
    its own parent, -1 unreached.  For a graph from NetworkX, source is a node
    key (or a list of them).  direction_alpha=0 keeps the search top-down.
    max_depth: None or -1, no limit (as any value from 2**31 - 1 up); k >= 0,
    vertices up to k hops (0: the sources alone), the rest -1; below -1,
    ValueError.  out / parents_out: int32 arrays of num_vertices to write
    into (and return) instead of new ones, e.g. to reuse memory in a loop
    (GPU arrays too: _gpu_arrays.py); two arrays sharing memory are a
    ValueError.
    """
    G = _graph(G, "single_source_shortest_path_length(G, source)")
    parents = flag(parents, "parents")
    if G._index() is not None:
        source = _node_sources(G, source)
    max_depth = -1 if max_depth is None else integer(max_depth, "max_depth")
    if max_depth >= _INT_MAX:
        max_depth = -1  # as deep as the graph goes
    ctx = context(device)
    out, gpu_out = host_out(out, "out")
    parents_out, gpu_parents = host_out(parents_out, "parents_out")
    if parents:
        _check_disjoint(out, gpu_out, parents_out, gpu_parents)
    n = G.num_vertices
    at = on_device(gpu_out, ctx, "<i4", n, "out")
    at_parents = on_device(gpu_parents, ctx, "<i4", n, "parents_out") if parents else None
    # the kernel writes GPU arrays itself when it can write all of them
    direct = at is not None and (not parents or at_parents is not None)
    d, p = _libgraph.run("bfs", G._g, {
        "source": to_host(source, "source"), "parents": parents, "max_depth": max_depth,
        "direction_alpha": direction_alpha, "direction_beta": direction_beta},
        context=ctx, outs={"distances": at if direct else out,
                           "parents": at_parents if direct else parents_out},
        device_outputs=direct)
    if direct:
        return (gpu_out[0], gpu_parents[0]) if parents else gpu_out[0]
    d = into_device(_result(d, out), gpu_out, "out")
    if not parents:
        return d
    return d, into_device(_result(p, parents_out), gpu_parents, "parents_out")


def _node_sources(G, source):
    """Node keys -> vertex ids: one key (keys may be tuples), or an iterable
    of keys."""
    index = G._index()
    source = _readable(source, "source")
    try:
        if source in index:
            return index[source]
    except TypeError:  # unhashable: a list, a numpy array
        pass
    if isinstance(source, (str, bytes)) or not hasattr(source, "__iter__"):
        return G.vertex(source)  # KeyError naming it
    if getattr(source, "ndim", 1) != 1:
        raise ValueError(f"source: expected one dimension, not {source.ndim}")
    return [G.vertex(s.item() if hasattr(s, "item") else s) for s in source]


def _vector(G, value, name):
    """A per-vertex option: None, an array of num_vertices, or a dict
    {vertex or node key: value} (missing entries 0, as NetworkX)."""
    if value is None or not isinstance(value, dict):
        return to_host(value, name)
    n = G.num_vertices
    out = [0.0] * n
    for key, x in value.items():
        try:
            v = operator.index(G.vertex(key))
        except (KeyError, TypeError):
            v = -1
        if not 0 <= v < n:
            raise ValueError(f"{name}: key {key!r} is not a vertex of the graph")
        out[v] = real(x, f"{name}[{key!r}]")
    return out


class PageRankInfo(NamedTuple):
    """What a PageRank call did: the iterations it ran, the L1 change of the
    last one (sum |x - x_last|), and whether that was below num_vertices *
    tol."""

    iterations: int
    residual: float
    converged: bool


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
             weight="weight", dangling=None, *, dtype="float64", device=None, out=None,
             return_info=False):
    """PageRank with networkx.pagerank's semantics and arguments.

    personalization, nstart, dangling: None, arrays of num_vertices values,
    or dicts {vertex: value} (node keys for a graph from NetworkX; missing
    entries 0).  weight: any true value (NetworkX's default "weight") uses
    the graph's weights, None/False ignores them.  dtype "float64" or
    "float32" (vectors in single precision; each row summed in float runs of
    8 added up in double).  Stops after the first iteration whose L1 change
    is below num_vertices * tol;
    raises NotConverged, with .scores (the last iterate), .iterations and
    .residual, when max_iter runs out (as networkx.pagerank raises
    PowerIterationFailedConvergence).  Returns the scores (in out, a float64
    or float32 array of num_vertices matching dtype, when given), or with
    return_info=True (scores, PageRankInfo(iterations, residual, converged)).
    Ctrl-C stops it between two iterations (KeyboardInterrupt).
    """
    G = _graph(G, "pagerank(G)")
    return_info = flag(return_info, "return_info")
    out, gpu_out = host_out(out, "out")
    precision = _precision(dtype)
    ctx = context(device)
    at = on_device(gpu_out, ctx, "<f8" if precision == "float64" else "<f4", G.num_vertices,
                   "out")
    try:
        scores, iterations, residual, _ = _libgraph.run("pagerank", G._g, {
            "alpha": alpha, "tol": tol, "max_iter": max_iter, "use_weights": flag(weight, "weight"),
            "personalization": _vector(G, personalization, "personalization"),
            "nstart": _vector(G, nstart, "nstart"), "dangling": _vector(G, dangling, "dangling"),
            "precision": precision}, context=ctx, outs={"scores": out if at is None else at},
            device_outputs=at is not None)
    except _libgraph.NotConverged as e:
        e.scores = gpu_out[0] if at is not None else into_device(_result(e.scores, out), gpu_out,
                                                                 "out")
        raise
    scores = gpu_out[0] if at is not None else into_device(_result(scores, out), gpu_out, "out")
    if return_info:
        return scores, PageRankInfo(iterations, residual, True)
    return scores



def connected_components(G, *, device=None, out=None):
    """Connected components (weakly connected for a directed graph):
    labels[v] is the smallest vertex id of v's component (int32; written
    into out, an int32 array of num_vertices, when given)."""
    G = _graph(G, "connected_components(G)")
    ctx = context(device)
    out, gpu_out = host_out(out, "out")
    at = on_device(gpu_out, ctx, "<i4", G.num_vertices, "out")
    given = out if at is None else at
    labels, _ = _libgraph.run("connected_components", G._g, context=ctx,
                              outs=None if given is None else {"labels": given},
                              device_outputs=at is not None)
    return gpu_out[0] if at is not None else into_device(_result(labels, out), gpu_out, "out")


def number_connected_components(G, *, device=None):
    """The number of (weakly) connected components."""
    return _libgraph.run("connected_components", _graph(G, "number_connected_components(G)")._g,
                         context=context(device))[1]


def strongly_connected_components(G, *, device=None, out=None):
    """Strongly connected components: labels[v] is the smallest vertex id of
    v's component (int32; written into out, an int32 array of num_vertices,
    when given).  On an undirected graph, its connected components."""
    G = _graph(G, "strongly_connected_components(G)")
    r = run("strongly_connected_components", G, device=device,
            out=None if out is None else {"labels": out})
    return r["labels"]


def number_strongly_connected_components(G, *, device=None):
    """The number of strongly connected components (the condensation's
    vertices)."""
    G = _graph(G, "number_strongly_connected_components(G)")
    return _libgraph.run("strongly_connected_components", G._g, context=context(device))[1]


_SSSP_METHODS = {"auto": 0, "delta-stepping": 1, "bellman-ford": 2}


def _choice(value, choices, name):
    try:
        return choices[value]
    except (KeyError, TypeError):
        raise ValueError(f"{name}: must be one of {', '.join(map(repr, choices))}, not "
                         f"{value!r}") from None


def sssp(G, source, *, weight="weight", predecessors=False, cutoff=None, target=None,
         delta=0.0, method="auto", device=None, out=None):
    """Shortest-path distances along out-edges from source (a vertex, or a
    sequence of them, all at distance 0); delta-stepping (Meyer and Sanders),
    or Bellman-Ford where some weight is negative.

    Returns distances (float64, inf for unreached vertices), or (distances,
    predecessors) with predecessors=True: predecessors[v] is an in-neighbour
    u on a shortest path (distances[u] + w(u, v) == distances[v], and
    following them always ends at a source), a source its own, -1
    unreached.  weight: any true value uses the graph's weights, None/False
    weighs every edge 1.  A distance is the sum of its path's weights in
    double, added from the source as NetworkX adds them: equal to
    NetworkX's for a graph of float64 weights (Graph.weight_dtype), and for
    float32 ones where they are exactly float32 values (integers, halves).
    cutoff: reach only vertices at that distance or nearer (None: all).
    target: stop once its distance is final, reaching no vertex farther.
    For a graph from NetworkX, source and target are node keys.  delta: the
    bucket width (0: chosen from the graph).  method: "auto" (delta-stepping,
    or Bellman-Ford for negative weights), "delta-stepping" (negative
    weights are a ValueError) or "bellman-ford"; a negative cycle reachable
    from a source raises Unbounded naming a vertex on it.  out: a float64
    array of num_vertices to write the distances into.
    """
    G = _graph(G, "single_source_dijkstra_path_length(G, source)")
    predecessors = flag(predecessors, "predecessors")
    if G._index() is not None and target is not None:
        target = G.vertex(target)  # run() maps source, a vertices parameter
    params = {"source": source, "predecessors": predecessors,
              "use_weights": flag(weight, "weight"),
              "cutoff": float("inf") if cutoff is None else real(cutoff, "cutoff"),
              "target": -1 if target is None else target, "delta": delta,
              "method": _choice(method, _SSSP_METHODS, "method")}
    r = run("sssp", G, device=device, out=None if out is None else {"distances": out}, **params)
    return (r["distances"], r["predecessors"]) if predecessors else r["distances"]


def shortest_path(G, source, target=None, *, weight="weight", method="auto", device=None):
    """Shortest paths along out-edges from source (one vertex): with target,
    one shortest path to it as a list of vertices from source to target
    (ValueError when target is unreached); without, a dict {vertex: path}
    for every reached vertex, in order of distance (ties by vertex id).
    Vertices are node keys for a graph with names.  The paths follow the
    predecessors of sssp (weight: the graph's weights, method as sssp's) or,
    with weight None, the parents of bfs; any shortest path where several
    tie (NetworkX's own choice among them comes from its search order: the
    NetworkX backend reproduces that).  One pair on the CPU (device None or
    "cpu", method "auto", no negative weight) is a bidirectional search,
    which grows a ball from each end until they meet: breadth-first with
    weight None, else Dijkstra's; elsewhere sssp stops once target is final.
    """
    G = _graph(G, "shortest_path(G, source, target)")
    names = G.names
    if target is not None and names is not None:
        target = G.vertex(target)
    elif target is not None:
        target = integer(target, "target")
        if not 0 <= target < G.num_vertices:
            raise ValueError(f"target: {target} is not a vertex (num_vertices "
                             f"{G.num_vertices})")
    key = (lambda v: names[v]) if names is not None else (lambda v: v)
    weighted = bool(weight) and G.weighted
    if (target is not None and method == "auto" and (device is None or device == "cpu") and
            not (weighted and G.negative_weights)):
        path = _pair_path(G, source, target, weighted)
        if path is None:
            raise ValueError(f"no path from {source!r} to {key(target)!r}")
        return [key(u) for u in path]
    if weight is None and target is None:
        dist, pred = bfs(G, source, parents=True, device=device)
        reached = dist >= 0
    else:
        dist, pred = sssp(G, source, weight=weight, predecessors=True, method=method,
                          target=None if target is None else key(target), device=device)
        reached = dist != float("inf")
    pred = pred.tolist()

    def walk(v):
        path = [v]
        while pred[path[-1]] != path[-1]:
            path.append(pred[path[-1]])
        return [key(u) for u in reversed(path)]

    if target is not None:
        if not reached[target]:
            raise ValueError(f"no path from {source!r} to {key(target)!r}")
        return walk(target)
    import numpy as np

    paths = [None] * len(pred)  # each vertex's path as vertex ids, a parent's reused
    out = {}
    for v in np.flatnonzero(reached)[np.argsort(dist[reached], kind="stable")].tolist():
        chain = []
        x = v
        while paths[x] is None and pred[x] != x:
            chain.append(x)
            x = pred[x]
        if paths[x] is None:
            paths[x] = [x]
        for y in reversed(chain):
            paths[y] = paths[pred[y]] + [y]
        out[key(v)] = [key(u) for u in paths[v]]
    return out


def _pair_path(G, source, target, weighted):
    """The vertex ids of a shortest path from source to target by the
    bidirectional search of nxkit (bidirectional_visit, or with weights
    bidirectional_dijkstra), over the out-arcs and the in-arcs; None when
    there is none."""
    s = G.vertex(source) if G._index() is not None else integer(source, "source")
    if not 0 <= s < G.num_vertices:
        raise ValueError(f"source: {s} is not a vertex (num_vertices {G.num_vertices})")
    if s == target:
        return [s]
    off, idx, w = G.csr()
    roff, ridx, rw = G.csc() if G.directed else (off, idx, w)
    if weighted:
        found = _libgraph.bidirectional_dijkstra(off, idx, w, roff, ridx, rw, s, target)
        raw = None if found is None else found[1]
    else:
        raw = _libgraph.bidirectional_visit(off, idx, roff, ridx, s, target)
    return None if raw is None else memoryview(raw).cast("i").tolist()


def _random_state(seed):
    """A random.Random as NetworkX's py_random_state makes one of seed: the
    random module's own for None, a new one for an int, seed itself for a
    Random (NetworkX's other kinds through NetworkX, when it is there)."""
    import random
    if seed is None or seed is random:
        return random._inst
    if isinstance(seed, random.Random):
        return seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        return random.Random(seed)
    try:
        from networkx.utils import create_py_random_state
    except ImportError:
        raise TypeError(f"seed: expected None, an int or a random.Random, not "
                        f"{type(seed).__name__}") from None
    return create_py_random_state(seed)


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None,
                           *, sources=None, device=None, out=None):
    """Betweenness centrality with networkx.betweenness_centrality's
    arguments and scaling: centrality[v] sums, over the sources s and the
    other vertices t, the fraction of shortest s-t paths through v (Brandes).

    k: None, every vertex a source (exact); else k sources sampled as
    NetworkX samples them (seed.sample of the vertices, seed an int, a
    random.Random or None: the same sources as NetworkX's for the same
    seed), the result scaled up to an estimate.  sources: the sample itself
    instead (distinct vertices, node keys for a graph from NetworkX).
    weight: None (NetworkX's default) counts paths of fewest edges, any
    true value paths of least weight (weights > 0: a zero or negative one
    is a ValueError).  normalized and endpoints as NetworkX's.  Returns a float64 array of num_vertices (in
    out when given); values equal NetworkX's up to rounding (its sums run
    in another order).  Ctrl-C stops it between two steps of sources.
    """
    G = _graph(G, "betweenness_centrality(G)")
    params = {"normalized": flag(normalized, "normalized"),
              "endpoints": flag(endpoints, "endpoints"),
              "use_weights": weight is not None and weight is not False}
    return _centrality("betweenness_centrality", G,
                       _brandes_sources("betweenness_centrality", G, k, seed, sources, params),
                       device, out)


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None, *,
                                sources=None, device=None, out=None):
    """Edge betweenness centrality with
    networkx.edge_betweenness_centrality's arguments and scaling: for each
    arc, the sum over the sources s and the other vertices t of the fraction
    of shortest s-t paths that take it (Brandes).

    Returns a float64 array of num_edges, one value an arc in G.csr()'s
    order (an undirected edge's two arcs hold the edge's value; parallel
    arcs are each their own paths), in out when given.  k, seed, sources,
    weight and normalized as betweenness_centrality's (there are no
    endpoints: an edge's ends are on every path it is on).  Values equal
    NetworkX's up to rounding.  Ctrl-C stops it between two steps of
    sources.
    """
    G = _graph(G, "edge_betweenness_centrality(G)")
    params = {"normalized": flag(normalized, "normalized"),
              "use_weights": weight is not None and weight is not False}
    return _centrality("edge_betweenness_centrality", G,
                       _brandes_sources("edge_betweenness_centrality", G, k, seed, sources,
                                        params), device, out)


def betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None, *,
                                  device=None, out=None):
    """Betweenness centrality of a subset with
    networkx.betweenness_centrality_subset's arguments and scaling:
    centrality[v] sums, over the sources s and the targets t (t != s), the
    fraction of shortest s-t paths through v (Brandes 2008).

    sources: distinct vertices; targets: vertices, repeats counting once
    (node keys for a graph with names; either empty: every value 0).
    normalized divides by (n - 1)(n - 2); else an undirected graph's sums
    are halved.  weight as betweenness_centrality's.  Returns a float64
    array of num_vertices (in out when given); values equal NetworkX's up
    to rounding.  Ctrl-C stops it between two steps of sources.
    """
    G = _graph(G, "betweenness_centrality_subset(G)")
    params = {"normalized": flag(normalized, "normalized"),
              "use_weights": weight is not None and weight is not False}
    ends = [_vertex_list(G, sources, "sources"), _vertex_list(G, targets, "targets")]
    if G.num_vertices > 0 and (len(ends[0]) == 0 or len(ends[1]) == 0):
        ends = [[0], [0]]  # no pair: the one pair (0, 0), which counts nothing (t != s)
    params["sources"], params["targets"] = ends
    return _centrality("betweenness_centrality_subset", G, params, device, out)


def _vertex_list(G, given, name):
    """Vertex ids of given: node keys for a graph with names, else ids (an
    array, a sequence, or one vertex)."""
    given = _node_sources(G, given) if G._index() is not None else to_host(given, name)
    return given if hasattr(given, "__len__") else [given]  # one vertex


def _brandes_sources(name, G, k, seed, sources, params):
    """params with the sources of a betweenness call: k drawn as NetworkX
    draws them (seed.sample of the vertices) or sources given (node keys
    for a graph with names), none for every vertex."""
    if k is not None and sources is not None:
        raise TypeError(f"{name}: give k (a sample to draw) or sources, not both")
    if k is not None:
        k = integer(k, "k")
        if k < 1:
            raise ValueError(f"k: a sample of {k} sources estimates nothing (k >= 1, or None "
                             f"for every vertex)")
        n = G.num_vertices
        if k != n:  # NetworkX takes k == len(G) as every node, drawing nothing
            sources = _random_state(seed).sample(range(n), k)
    elif sources is not None:
        sources = _vertex_list(G, sources, "sources")
        if len(sources) == 0:
            raise ValueError("sources: empty (None for every vertex)")
    if sources is not None:
        params["sources"] = sources
    return params


def _centrality(algorithm, G, params, device, out):
    """An algorithm's one array result "centrality" (per vertex or per arc),
    its vertex parameters already ids (run() would read ints as node keys)."""
    out, gpu_out = host_out(out, "out")
    (centrality,) = _libgraph.run(algorithm, G._g, params, context=context(device),
                                  outs={"centrality": out})
    return into_device(_result(centrality, out), gpu_out, "out")


def _closeness(G, harmonic, distance, wf_improved, device, out):
    params = {"harmonic": harmonic, "wf_improved": flag(wf_improved, "wf_improved"),
              "use_weights": distance is not None and distance is not False}
    return _centrality("closeness_centrality", G, params, device, out)


def closeness_centrality(G, distance=None, wf_improved=True, *, device=None, out=None):
    """Closeness centrality with networkx.closeness_centrality's semantics:
    for each vertex u, (r - 1) / (the sum of the distances d(v, u) of the r
    vertices v that reach u, u included), times (r - 1) / (n - 1) with
    wf_improved; on a directed graph the distances into u, as NetworkX's.
    distance: None counts edges (the result equals NetworkX's to the bit),
    a true value weighs them by the graph's weights (>= 0).  Returns a
    float64 array of num_vertices (in out when given)."""
    G = _graph(G, "closeness_centrality(G)")
    return _closeness(G, False, distance, wf_improved, device, out)


def harmonic_centrality(G, distance=None, *, device=None, out=None):
    """Harmonic centrality with networkx.harmonic_centrality's semantics:
    for each vertex u the sum of 1 / d(v, u) over the vertices v that reach
    u at a distance > 0 (on a directed graph the distances into u).
    distance as closeness_centrality's; values equal NetworkX's up to
    rounding (the sums run in another order).  Returns a float64 array of
    num_vertices (in out when given)."""
    G = _graph(G, "harmonic_centrality(G)")
    return _closeness(G, True, distance, True, device, out)


def _precision(dtype):
    """A dtype argument (a string, numpy.float32 as a type, or
    numpy.dtype("float32")) as a precision parameter's value."""
    key = dtype if isinstance(dtype, str) else (getattr(dtype, "name", None)
                                                 or getattr(dtype, "__name__", str(dtype)))
    precision = {"float64": "float64", "float32": "float32", "double": "float64",
                 "single": "float32"}.get(key)
    if precision is None:
        raise ValueError(f"dtype: must be 'float64' or 'float32', not {dtype!r}")
    return precision


def _iterated(algorithm, G, params, names, device, outs):
    """A power iteration's per-vertex results (names), with NotConverged's
    attributes of those names made arrays like the results'."""
    host = [host_out(o, "out") for o in outs]
    given = {k: o for k, (o, _) in zip(names, host) if o is not None}
    try:
        r = _libgraph.run(algorithm, G._g, params, context=context(device), outs=given or None)
    except _libgraph.NotConverged as e:
        for k, (o, gpu) in zip(names, host):
            setattr(e, k, into_device(_result(getattr(e, k), o), gpu, "out"))
        raise
    return [into_device(_result(x, o), gpu, "out") for x, (o, gpu) in zip(r, host)]


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None, *,
                           dtype="float64", device=None, out=None):
    """Eigenvector centrality with networkx.eigenvector_centrality's
    semantics: power iteration on A + I (a vertex gathers its
    in-neighbours' values) from nstart (None: uniform; an array or a dict
    {vertex: value}, not summing to 0), normalised to unit length each
    iteration, stopped after the first whose L1 change is below
    num_vertices * tol.  weight: a true value weighs the edges by the
    graph's weights (of any sign).  dtype "float64" or "float32" (vectors
    in single precision, the sums in double: a relative 1e-7 or so off the
    double result; a tol below that may never be met).  Raises
    NotConverged (.centrality the last iterate) when max_iter runs out,
    ValueError for a graph with no vertices.  Returns an array of
    num_vertices of dtype (in out when given).  Ctrl-C stops it between two
    iterations (KeyboardInterrupt)."""
    G = _graph(G, "eigenvector_centrality(G)")
    return _iterated("eigenvector_centrality", G, {
        "max_iter": max_iter, "tol": tol, "nstart": _vector(G, nstart, "nstart"),
        "use_weights": flag(weight, "weight"), "precision": _precision(dtype)},
        ["centrality"], device, [out])[0]


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None,
                    normalized=True, weight=None, *, dtype="float64", device=None, out=None):
    """Katz centrality with networkx.katz_centrality's semantics: x =
    alpha A^T x + beta by power iteration from nstart (None: 0), stopped
    after the first iteration whose L1 change is below num_vertices * tol,
    then scaled to unit length when normalized.  beta: a number, or an
    array or dict {vertex: value} of each vertex's own.  weight as
    eigenvector_centrality's, and dtype.  Raises NotConverged (.centrality
    the last iterate) when max_iter runs out (alpha at or above 1 / the
    largest eigenvalue of A).  Returns an array of num_vertices of dtype
    (in out when given).  Ctrl-C stops it between two iterations."""
    G = _graph(G, "katz_centrality(G)")
    scalar = not isinstance(beta, dict) and not hasattr(beta, "__len__")
    return _iterated("katz_centrality", G, {
        "alpha": alpha, "beta": float(beta) if scalar else 1.0,
        "betas": None if scalar else _vector(G, beta, "beta"), "max_iter": max_iter,
        "tol": tol, "nstart": _vector(G, nstart, "nstart"),
        "normalized": flag(normalized, "normalized"), "use_weights": flag(weight, "weight"),
        "precision": _precision(dtype)}, ["centrality"], device, [out])[0]


def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True, *, weight="weight",
         dtype="float64", device=None, out=None):
    """Hubs and authorities with networkx.hits's semantics, by NetworkX's
    own power iteration: from the hubs nstart (None: uniform; values >= 0),
    a = A^T h and h = A a, each divided by its largest entry, until the
    first iteration whose L1 change of h is below tol; scaled to sum 1 each
    when normalized.  weight: NetworkX's hits weighs edges by "weight";
    None/False ignores the weights (which must be >= 0).  dtype as
    eigenvector_centrality's (in float32 the default tol, an absolute L1
    change of 1e-8, is below the rounding of many graphs' hubs, and may
    never be met: pass tol num_vertices * 1e-6 or so).  Raises NotConverged (.hubs, .authorities) when max_iter
    runs out.  Returns (hubs, authorities), arrays of num_vertices of dtype
    (out: a pair of arrays to write into).  Ctrl-C stops it between two
    iterations."""
    G = _graph(G, "hits(G)")
    outs = list(out) if out is not None else [None, None]
    if len(outs) != 2:
        raise ValueError("out: expected a pair of arrays (hubs, authorities)")
    return tuple(_iterated("hits", G, {
        "max_iter": max_iter, "tol": tol, "nstart": _vector(G, nstart, "nstart"),
        "normalized": flag(normalized, "normalized"), "use_weights": flag(weight, "weight"),
        "precision": _precision(dtype)}, ["hubs", "authorities"], device, outs))


def triangles(G, *, device=None, out=None):
    """The triangles through each vertex of an undirected graph, as
    networkx.triangles counts them (self-loops and parallel edges ignored);
    their sum is three times the graph's.  Returns an int64 array of
    num_vertices (in out when given).  A directed graph raises ValueError.
    Ctrl-C stops it between two steps of vertices."""
    G = _graph(G, "triangles(G)")
    out, gpu_out = host_out(out, "out")
    per_vertex, _ = _libgraph.run("triangles", G._g, {}, context=context(device),
                                  outs={"triangles": out})
    return into_device(_result(per_vertex, out), gpu_out, "out")


def _clustering(G, device, out=None):
    out, gpu_out = host_out(out, "out")
    coefficients, average, transitivity = _libgraph.run(
        "clustering", G._g, {}, context=context(device), outs={"clustering": out})
    return into_device(_result(coefficients, out), gpu_out, "out"), average, transitivity


def clustering(G, *, device=None, out=None):
    """Each vertex's clustering coefficient in an undirected graph, as
    networkx.clustering's unweighted one: 2 T(v) / (d(v) (d(v) - 1)), T(v)
    its triangles, d(v) its neighbours other than itself (0 below two).
    Returns a float64 array of num_vertices (in out when given).  A directed
    graph raises ValueError."""
    return _clustering(_graph(G, "clustering(G)"), device, out)[0]


def average_clustering(G, *, count_zeros=True, device=None):
    """The mean of clustering(G) over every vertex, as
    networkx.average_clustering (count_zeros=False: over the vertices whose
    coefficient is not 0).  A float; ZeroDivisionError for a graph with no
    vertices (to average), as NetworkX's."""
    G = _graph(G, "average_clustering(G)")
    c = _clustering(G, device)[0]
    kept = (c if flag(count_zeros, "count_zeros") else c[c > 0]).tolist()
    if len(kept) == 0:
        raise ZeroDivisionError("average_clustering: no coefficient to average")
    # Python's sum in vertex order, as NetworkX adds them (compensated from
    # Python 3.12 on: the C result's plain sum can differ in the last bits)
    return sum(kept) / len(kept)


def transitivity(G, *, device=None):
    """The fraction of an undirected graph's connected triples that close
    into triangles, as networkx.transitivity: 3 triangles / triples, 0
    without triangles.  A float."""
    return _clustering(_graph(G, "transitivity(G)"), device)[2]


def algorithms():
    """The library's algorithms, as its descriptors give them: a tuple of
    dicts with name, title, summary, function (the C entry point),
    uses_weights, params (each a dict: name, type, required, default,
    choices, help) and results (each: name, type, per_vertex, per_arc, when,
    help).  Parameter types: bool, int, double, precision (a choice of
    "float64" or "float32"), vertices (one vertex or several),
    vertex_doubles (a value a vertex, or None); result types: int32 or real
    (an array, per vertex or per arc: real is the precision's float), int,
    double or bool (one value).  A per-arc array follows G.csr()'s arcs."""
    return _libgraph.algorithms()


def _descriptor(name):
    for a in _libgraph.algorithms():
        if a["name"] == name:
            return a
    names = ", ".join(a["name"] for a in _libgraph.algorithms())
    raise ValueError(f"algorithm: no algorithm is named {name!r} (there are {names})")


def run(algorithm, G, *, device=None, out=None, **params):
    """Runs the library's algorithm of that name (algorithms() lists them,
    with their parameters and results) on G, with params by the
    descriptor's names and the rest at their defaults.

    Returns a dict of the results the call made, by name: a numpy array of
    num_vertices (int32, or float64 / float32 by a precision parameter) for a
    per-vertex result, of num_edges (one an arc, in G.csr()'s order) for a
    per-arc one, an int, float or bool for one value.  For a graph from
    NetworkX (or with names), a vertices parameter takes node keys and a
    vertex_doubles one a dict {node key: value} too.  out: a dict {result
    name: array} of arrays to write results into and return (a GPU array is
    filled by a copy after the call; bfs, pagerank and connected_components
    write into GPU arrays directly).  Raises what the typed function would:
    ValueError with the library's message for a bad value, NotConverged
    (each result an attribute) when an iteration runs out.
    """
    info = _descriptor(algorithm)
    G = _graph(G, f"{algorithm}(G)")
    kinds = {p["name"]: p["type"] for p in info["params"]}
    for name, value in params.items():
        if kinds.get(name) == "vertices":
            params[name] = (_node_sources(G, value) if G._index() is not None
                            else to_host(value, name))
        elif kinds.get(name) == "vertex_doubles":
            params[name] = _vector(G, value, name)
    ctx = context(device)
    arrays = {r["name"] for r in info["results"] if r["per_vertex"] or r["per_arc"]}
    outs, gpu = {}, {}
    for name, array in (out or {}).items():
        if name not in arrays:
            raise TypeError(f"out: {algorithm} has no array result named {name!r} (it has "
                            f"{', '.join(sorted(arrays)) or 'none'})")
        outs[name], gpu[name] = host_out(array, f"{name} out")

    def made(results):
        return {r["name"]: (into_device(_result(x, outs.get(r["name"])), gpu.get(r["name"]),
                                        f"{r['name']} out") if r["name"] in arrays else x)
                for r, x in zip(info["results"], results) if x is not None}
    try:
        results = _libgraph.run(algorithm, G._g, params, context=ctx, outs=outs)
    except _libgraph.NotConverged as e:
        for name, value in made(getattr(e, r["name"], None) for r in info["results"]).items():
            setattr(e, name, value)
        raise
    return made(results)


def last_backend():
    """Where this thread's last algorithm call ran: "cpu", "gpu", or None
    (no call yet, or the last one was refused before running)."""
    return _libgraph.last_backend()


def last_backend_reason():
    """Why this thread's last algorithm call ran where it did, when an "auto"
    device chose (e.g. "the graph is on the GPU"; see lg_last_backend_reason
    in libgraph.h for the rule), and "" otherwise."""
    return _libgraph.last_backend_reason()


def build_info():
    """How the C library was built and which GPU plugin it finds."""
    return _libgraph.build_info()
