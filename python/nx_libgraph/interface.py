"""The backend NetworkX calls (the ``networkx.backends`` entry point): graph
conversion, the algorithms, and can_run / should_run.

A NetworkX graph (or graph view) becomes a LibgraphGraph (_convert.py): its
adjacency read in C into arrays (nxkit.adjacency_csr, as Graph.from_networkx),
vertex i being node ``nodes[i]`` in NetworkX's node order; each weighting a
call asks for (none, an edge attribute, a multigraph's parallel-edge
counts) is read once from the NetworkX graph when first needed, and the
libgraph.Graph the kernels need is built from it on first use.  NetworkX
caches the conversion on the original graph (``G.__networkx_cache__``)
while ``nx.config.cache_converted_graphs`` is on, so later calls on an
unchanged graph do not convert again; the cached conversion may be handed
to any call, so every call takes from it only what it asks for.  Calls
libgraph cannot take as NetworkX gives them (weights, PageRank arguments,
traversal limits) are declined twice: by should_run, so that NetworkX runs
them when it picks the backend itself, and by the function, whose
NotImplementedError tells a call that named the backend why.  Results
are NetworkX's types: dicts keyed by node, sets and generators of sets of
nodes, in NetworkX's order.
"""

import functools
import inspect
import math
import numbers
import re
from collections.abc import Mapping

import networkx as nx

import libgraph as lg
from libgraph import nxkit

# convert_from_nx and convert_to_nx are the backend's: NetworkX calls them here
from ._convert import (
    BACKEND,
    EXACT,
    EXACT_FUNCTIONS,
    SIGNED,
    LibgraphGraph,
    _built,
    _cached,
    _conversion,
    _forget_view,
    _handoff,
    convert_from_nx,
    convert_to_nx,
)

# Graphs of fewer nodes than this go back to NetworkX (should_run): the
# conversion costs more than the call saves.  Measured on the 2-core machine
# (random graphs of 4 n edges, a fresh conversion each call, best of 7):
# PageRank with libgraph is faster from 10 nodes on (0.05 against 0.48 ms),
# connected components from about 200 (100 nodes: 0.062 against 0.040 ms;
# 300: 0.124 against 0.151 ms), the traversals from about 200 too
# (bfs_edges: 0.100 against 0.100 ms at 200, 0.133 against 0.181 at 300).
SMALL_GRAPH = {"pagerank": 0}
SMALL_GRAPH_DEFAULT = 200

# ---- where a call runs ------------------------------------------------------------


def _device(device):
    """The device of a call: its own, else the backend's configuration."""
    if device is not None:
        return device
    config = getattr(nx.config.backends, BACKEND, None)
    return getattr(config, "device", "auto") if config is not None else "auto"


def _graph_argument(args, kwargs):
    return args[0] if args else kwargs.get("G")


def can_run(name, args, kwargs):
    """True for the functions libgraph has, whatever the arguments, so that a
    call asked for by name (backend="libgraph") reaches the function, which
    raises NotImplementedError saying why when it declines the arguments
    (_refusal): NetworkX's dispatcher keeps a string from can_run for its
    debug log only, and shows the user a function's NotImplementedError as
    the cause of its own.  should_run declines the same calls before any
    conversion when NetworkX chooses the backend itself."""
    _handoff.clear()
    if name not in _FUNCTIONS:
        return f"libgraph has no {name}"
    _forget_view(_graph_argument(args, kwargs))
    return True


def should_run(name, args, kwargs):
    """False, with the reason, for a NetworkX graph too small for the
    conversion to pay (SMALL_GRAPH, measured) and for a call libgraph
    declines (_refusal); True otherwise.  A PageRank's weights are read here
    (once: the conversion goes to convert_from_nx)."""
    G = _graph_argument(args, kwargs)
    if not (isinstance(G, LibgraphGraph) or _cached(G) is not None):
        try:
            n = len(G)
        except TypeError:
            n = None
        small = SMALL_GRAPH.get(name, SMALL_GRAPH_DEFAULT)
        if n is not None and n < small:
            _handoff.clear()  # NetworkX runs this call: no conversion follows
            return (f"the graph has {n} nodes (< {small}): converting it costs more than "
                    f"NetworkX's own {name}")
    why = _refusal(name, args, kwargs)
    if why:
        _handoff.clear()
        return why
    return True


def _refusal(name, args, kwargs):
    """Why libgraph does not take the call as given, or None: PageRank
    declines weights libgraph cannot take as NetworkX gives them and
    arguments whose meaning in NetworkX libgraph's PageRank does not have
    (_pagerank_trouble); the traversals decline sort_neighbors and limits
    that are not numbers; shortest_path(_length) take the forms
    _shortest_refusal says."""
    if name == "pagerank":
        why = _pagerank_can_run(args, kwargs)
    elif name in _DIJKSTRA or name in _BELLMAN_FORD:
        why = _dijkstra_can_run(name, args, kwargs)
    elif name in _SHORTEST:
        why = _shortest_can_run(name, args, kwargs)
    elif name in _TRAVERSALS:
        why = _traversal_can_run(name, args, kwargs)
    elif name in ("betweenness_centrality", "edge_betweenness_centrality",
                  "betweenness_centrality_subset"):
        why = _betweenness_can_run(name, args, kwargs)
    elif name in _CENTRALITY:
        why = _closeness_can_run(name, args, kwargs)
    elif name in _DEGREES:
        why = _degree_can_run(name, args, kwargs)
    elif name in _POWER:
        why = _power_can_run(name, args, kwargs)
    elif name in _CLUSTER:
        why = _cluster_can_run(name, args, kwargs)
    else:
        return None
    return None if why is True else why


# What a declined call asked for by name says to do.
_ELSEWHERE = ('libgraph declines such calls: leave out backend="libgraph" (or pass '
              'backend="networkx") and NetworkX runs it')


def _declining(name, function):
    """function, first raising NotImplementedError with _refusal's reason
    for arguments libgraph declines."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        why = _refusal(name, args, kwargs)
        if why:
            raise NotImplementedError(f"{why}; {_ELSEWHERE}")
        return function(*args, **kwargs)

    return call


_PARAMETERS = {}


def _argument(function, args, kwargs, name):
    """The value of parameter `name` of one of this module's functions in a
    call by name (args, kwargs): given by position or keyword, else its
    default.  (inspect's bind costs about 10 us a call.)"""
    params = _PARAMETERS.get(function)
    if params is None:
        parameters = inspect.signature(function).parameters.values()
        params = _PARAMETERS[function] = {p.name: (i, p.default) for i, p in enumerate(parameters)}
    i, default = params[name]
    return args[i] if i < len(args) else kwargs.get(name, default)


# ---- PageRank -----------------------------------------------------------------------


def _real(x):
    """x as a float when it is a real number (bool and numpy's included), else None."""
    if not isinstance(x, numbers.Real):
        return None
    try:
        return float(x)
    except (OverflowError, TypeError, ValueError):
        return None


def _vector_trouble(G, name, values, positive):
    """Why a personalization, nstart or dangling dict is not one libgraph
    takes as NetworkX does, or None: its values for nodes of G must be
    finite numbers >= 0 with a finite sum, positive where NetworkX would
    divide by it (nstart, dangling: NetworkX's iteration turns NaN)."""
    if values is None:
        return None
    if not isinstance(values, Mapping):
        return f"{name} is not a dict"
    total = 0.0
    for k, v in values.items():
        if k not in G:
            continue  # NetworkX ignores it
        x = _real(v)
        if x is None or not x >= 0 or x == math.inf:
            return f"{name}[{k!r}] = {v!r} is not a finite number >= 0"
        total += x
    if total == math.inf:
        return f"{name} sums to more than a double holds"
    if positive and total == 0:
        return f"{name} sums to 0"
    return None


def _pagerank_trouble(G, a):
    """Why PageRank's arguments a (bound) are not ones libgraph takes as
    NetworkX does, or None.  NetworkX computes on with alpha outside [0, 1],
    negative tolerances or vector values, or fails in its own way; libgraph
    refuses them."""
    alpha, tol = _real(a["alpha"]), _real(a["tol"])
    if alpha is None or not 0 <= alpha <= 1:
        return f"alpha {a['alpha']!r} is not a number in [0, 1]"
    if tol is None or not 0 <= tol < math.inf:
        return f"tol {a['tol']!r} is not a finite number >= 0"
    max_iter = a["max_iter"]
    if not isinstance(max_iter, numbers.Integral) or not 0 <= max_iter <= 2**31 - 1:
        return f"max_iter {max_iter!r} is not an integer in [0, 2**31)"
    return (_vector_trouble(G, "personalization", a["personalization"], False)
            or _vector_trouble(G, "nstart", a["nstart"], True)
            or _vector_trouble(G, "dangling", a["dangling"], True))


def _pagerank_can_run(args, kwargs):
    a = {name: _argument(pagerank, args, kwargs, name) for name in _PAGERANK_ARGUMENTS}
    G = a["G"]
    why = _pagerank_trouble(G, a)
    if why:
        return f"pagerank: {why}"
    try:
        conv = _conversion(G)
        conv.arcs(conv.weighting(a["weight"]))
    except (NotImplementedError, TypeError, KeyError, ValueError, RuntimeError) as exc:
        # NetworkX gives these graphs its own result, or its own error
        return f"pagerank: {exc}"
    return True


_PAGERANK_ARGUMENTS = ("G", "alpha", "personalization", "max_iter", "tol", "nstart", "weight",
                       "dangling")


def _node_vector(G, values):
    """A NetworkX dict of per-node values as libgraph takes it: entries for
    nodes not in G are ignored, as NetworkX ignores them."""
    if values is None:
        return None
    return {k: v for k, v in values.items() if k in G}


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
             weight="weight", dangling=None, *, device=None):
    if len(G) == 0:
        return {}
    # weight None: no weights, but a multigraph's arcs weigh their parallel edges
    weighting = G.weighting(weight)
    g = G.graph(weighting)
    personalization = _node_vector(G, personalization)
    if personalization is not None and not any(personalization.values()):
        raise ZeroDivisionError("float division by zero")  # NetworkX's own error
    try:
        x = lg.pagerank(g, alpha, personalization, max_iter, tol,
                        _node_vector(G, nstart), weight=weighting is not None,
                        dangling=_node_vector(G, dangling), device=_device(device))
    except lg.NotConverged:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(g.nodes, x.tolist()))


# ---- connected components -----------------------------------------------------------


def _component_sets(G, device):
    """The components as sets of nodes, in NetworkX's order (by each one's
    first node in node order: libgraph labels a component by its smallest
    vertex id), built in C."""
    labels = lg.connected_components(G.graph(), device=_device(device))
    return _built(nxkit.components, G.nodes, labels)


def connected_components(G, *, device=None):
    return (c for c in _component_sets(G, device))


def number_connected_components(G, *, device=None):
    return lg.number_connected_components(G.graph(), device=_device(device))


def is_connected(G, *, device=None):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return number_connected_components(G, device=device) == 1


def node_connected_component(G, n, *, device=None):
    if n not in G:
        raise KeyError(n)
    labels = lg.connected_components(G.graph(), device=_device(device))
    label = labels[G.vertex(n)]
    return {node for node, x in zip(G.nodes, labels.tolist()) if x == label}


# Strongly connected components: the sets in the order NetworkX's own search
# yields them (nxkit.scc_visit, in C); the counts from libgraph's kernel.


def strongly_connected_components(G):
    order, ends = nxkit.scc_visit(*G.adjacency)
    return (c for c in _built(nxkit.groups, G.nodes, order, ends))


def number_strongly_connected_components(G, *, device=None):
    return lg.number_strongly_connected_components(G.graph(), device=_device(device))


def is_strongly_connected(G, *, device=None):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(
            "Connectivity is undefined for the null graph.")
    return number_strongly_connected_components(G, device=device) == 1


# libgraph's components of a directed graph are its weak ones: NetworkX's
# decorators have already refused the wrong kind of graph for each name
weakly_connected_components = connected_components
number_weakly_connected_components = number_connected_components
is_weakly_connected = is_connected


# ---- traversals ----------------------------------------------------------------------
#
# NetworkX's traversals return nodes in the order its sequential search finds
# them (each layer parent by parent, each parent's neighbours in adjacency
# order), and tests and users rely on it; nxkit.bfs_visit makes that
# same visit in C over the adjacency-order CSR kept with the conversion.


_SORTED = "sort_neighbors: libgraph's traversal follows NetworkX's adjacency order only"


def _expansions(limit, n):
    """How many layers after the first NetworkX's search expands for a depth
    limit or cutoff (a real number or None; it expands while depth < limit,
    or cutoff > level): -1 for all of them."""
    if limit is None or limit >= n:  # no search reaches a layer n or deeper
        return -1
    if limit != limit:  # NaN: NetworkX's comparison is false at once
        return 0
    return max(math.ceil(limit), 0)


class _Visit:
    """One visit: nodes in order, each one's discoverer, the layers' ends."""

    def __init__(self, G, first, limit=None, reverse=False):
        off, idx = G.predecessors() if reverse else G.adjacency
        self.raw, self._parents, self.ends = nxkit.bfs_visit(off, idx, first,
                                                                 _expansions(limit, len(G)))
        self.nodes = G.nodes

    def edges(self, form="edges"):
        """The tree's edges (parent, node) in visit order; form "reversed":
        (node, parent); "successors": (parent, [its children])."""
        return _built(nxkit.tree_edges, self.nodes, self.raw, self._parents, form)

    def layer(self, i):
        """The nodes of layer i, in visit order."""
        return nxkit.take(self.nodes, self.raw, self.ends[i - 1] if i else 0, self.ends[i])

    def layers(self):
        for i in range(len(self.ends)):
            yield self.layer(i)


def _vertex(G, source, error):
    if source not in G:
        raise error
    return G.vertex(source)


def _edge_visit(G, source, reverse, depth_limit):
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    return _Visit(G, [v], depth_limit, reverse and G.is_directed())


# The generators check their arguments and search when called, so that
# NetworkX sees a refusal (NotImplementedError) while it can still fall back.


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    return (e for e in _edge_visit(G, source, reverse, depth_limit).edges())


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    edges = _edge_visit(G, source, reverse, depth_limit).edges()
    T = nx.DiGraph()
    T.add_node(source)
    # NetworkX's own graph building, its dicts made with the collector paused
    _built(T.add_edges_from, edges)
    return T


def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    pairs = _edge_visit(G, source, False, depth_limit).edges("reversed")
    return (pair for pair in pairs)


def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    groups = _edge_visit(G, source, False, depth_limit).edges("successors")
    # NetworkX names the first parent by the source as given, and yields it
    # with no children when nothing is reached
    groups[:1] = [(source, groups[0][1] if groups else [])]
    return (group for group in groups)


_LAYER_ONE = []


def _first_layer(sources):
    """bfs_layers' first layer as this NetworkX makes it: the sources as
    given (NetworkX 3.4), or once each in the order of a set of them (3.6);
    found once by asking NetworkX's own function."""
    if not _LAYER_ONE:
        probe = next(iter(nx.bfs_layers.orig_func(nx.path_graph(2), [1, 0, 1])))
        _LAYER_ONE.append(len(probe) == 3)
    return list(sources) if _LAYER_ONE[0] else list(set(sources))


def bfs_layers(G, sources):
    if sources in G:
        sources = [sources]
    first = _first_layer(sources)
    for source in first:
        if source not in G:
            raise nx.NetworkXError(f"The node {source} is not in the graph.")
    layers = _Visit(G, [G.vertex(s) for s in first]).layers()
    next(layers)  # the visit's first layer has each source once
    return _with_first(first, layers)


def _with_first(first, layers):
    if first:  # no sources: NetworkX yields no layer
        yield first
        yield from layers


def descendants_at_distance(G, source, distance):
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    # NetworkX returns the layer i with i == distance, if any
    if not 0 <= distance < len(G) or distance != math.floor(distance):
        return set()
    d = math.floor(distance)
    visit = _Visit(G, [v], d)
    if d >= len(visit.ends):
        return set()
    return set(visit.layer(d))


def single_source_shortest_path_length(G, source, cutoff=None):
    v = _vertex(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    visit = _Visit(G, [v], cutoff)
    return _built(nxkit.levels, visit.nodes, visit.raw, visit.ends)


def _shortest_refusal(name, G, source=None, target=None, weight=None, method="dijkstra"):
    """Why shortest_path or shortest_path_length with these arguments is not
    libgraph's, or None: the forms that NetworkX answers with the functions
    the backend has (from one source; one pair; to one target of an
    undirected graph)."""
    if callable(weight):
        return f"{name}: weight is a function"
    if method not in ("dijkstra", "bellman-ford"):
        return None  # NetworkX's ValueError, raised by the backend's function too
    if source is None and target is None:
        return f"{name}: every pair of nodes"
    if source is None and G.is_directed():
        return f"{name}: to one target of a directed graph (a search over the reverse graph)"
    if weight is not None and G.is_multigraph():
        return f"{name}: a multigraph (NetworkX weighs parallel edges by the smallest)"
    return None


def _single_source(G, source, weight, method, lengths):
    """NetworkX's single-source call that shortest_path(_length) makes."""
    if weight is None:
        return (single_source_shortest_path_length if lengths else
                single_source_shortest_path)(G, source)
    if method == "dijkstra":
        return (single_source_dijkstra_path_length if lengths else
                single_source_dijkstra_path)(G, source, weight=weight)
    return (single_source_bellman_ford_path_length if lengths else
            single_source_bellman_ford_path)(G, source, weight=weight)


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    if source is None:  # to the target of an undirected graph: the paths from it, reversed
        paths = _single_source(G, target, weight, method, False)
        return {node: list(reversed(path)) for node, path in paths.items()}
    if target is None:
        return _single_source(G, source, weight, method, False)
    if weight is None:
        return bidirectional_shortest_path(G, source, target)
    if method == "dijkstra":
        return bidirectional_dijkstra(G, source, target, weight)[1]
    return bellman_ford_path(G, source, target, weight)


def bidirectional_shortest_path(G, source, target):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    off, idx = G.adjacency
    roff, ridx = G.predecessors() if G.is_directed() else (off, idx)
    raw = nxkit.bidirectional_visit(off, idx, roff, ridx, G.vertex(source), G.vertex(target))
    if raw is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return nxkit.take(G.nodes, raw, 0, len(raw) // 4)


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    if source is None:
        return _single_source(G, target, weight, method, True)
    if target is None:
        return _single_source(G, source, weight, method, True)
    if weight is None:  # NetworkX: the length of its bidirectional search's path
        return len(bidirectional_shortest_path(G, source, target)) - 1
    if method == "dijkstra":
        return dijkstra_path_length(G, source, target, weight)
    return bellman_ford_path_length(G, source, target, weight)


# ---- shortest paths and reachability ------------------------------------------------
#
# NetworkX's Dijkstra functions return dicts in the order its heap settles
# nodes (ties by the order of pushes) and, before NetworkX 3.6, paths in the
# order nodes are first seen; nxkit.dijkstra_visit makes the same search in
# C over the adjacency-order arcs, with each weight exactly as NetworkX
# reads it (float64).


def _search(G, first, weight, cutoff=None, target=None):
    """nxkit.dijkstra_visit from the vertex ids first, weighted by the edge
    attribute weight (None: every edge 1)."""
    if weight is None:
        (off, idx), w = G.adjacency, None
    else:
        off, idx, w = G.arcs(G.weighting(weight, exact=True))
    t = G.vertex(target) if target is not None and target in G else -1
    return nxkit.dijkstra_visit(off, idx, w, first, cutoff, t)


def _integral(G, weight, mark=EXACT):
    """Whether NetworkX's distances by this weight are ints (its sums of
    int weights), so that the backend gives ints too."""
    return weight is None or G.integral(G.weighting(weight, exact=mark))


def _sources(G, sources):
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    return [G.vertex(s) for s in sources]


_PATHS_BY_POP = []


def _paths_by_pop():
    """Whether this NetworkX keys its Dijkstra paths in the order nodes are
    settled (3.6) rather than first seen; found once by asking NetworkX's
    own search (not dispatched) on a graph where the two differ."""
    if not _PATHS_BY_POP:
        from networkx.algorithms.shortest_paths import weighted

        H = nx.DiGraph([(0, 1, {"weight": 5}), (0, 2, {"weight": 1})])
        paths = {0: [0]}
        weighted._dijkstra_multisource(H, [0], weighted._weight_function(H, "weight"),
                                       paths=paths)
        _PATHS_BY_POP.append(list(paths) == [0, 2, 1])
    return _PATHS_BY_POP[0]


def _path_to(G, parents, v):
    parent = memoryview(parents).cast("i")
    path = [v]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    return [G.nodes[u] for u in reversed(path)]


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    first = _sources(G, sources)
    if target in sources:
        return (0, [target])
    order, dists, parents, found = _search(G, first, weight, cutoff, target)
    if target is None:
        lengths = _built(nxkit.lengths, G.nodes, order, dists, len(set(first)),
                         _integral(G, weight))
        paths = _built(nxkit.paths, G.nodes, order, parents, None if _paths_by_pop() else found)
        return (lengths, paths)
    t = G.vertex(target) if target in G else -1
    if t < 0 or not order or memoryview(order).cast("i")[-1] != t:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    d = memoryview(dists).cast("d")[-1]
    return (int(d) if _integral(G, weight) else d, _path_to(G, parents, t))


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    first = _sources(G, sources)
    order, dists, _, _ = _search(G, first, weight, cutoff)
    return _built(nxkit.lengths, G.nodes, order, dists, len(set(first)), _integral(G, weight))


def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    return multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)[1]


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    return multi_source_dijkstra(G, {source}, target=target, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    return multi_source_dijkstra_path_length(G, {source}, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    return multi_source_dijkstra_path(G, {source}, cutoff=cutoff, weight=weight)


def dijkstra_path(G, source, target, weight="weight"):
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def _nx_release():
    """(major, minor) of the running NetworkX, which decides the forms some
    of its results take."""
    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", nx.__version__).groups())


_SNAPSHOT_PATHS = []


def _snapshot_paths():
    """Whether this NetworkX's bidirectional_dijkstra copies the best path
    when it finds it (before 3.6) rather than reading it from its
    predecessors at the end."""
    if not _SNAPSHOT_PATHS:
        _SNAPSHOT_PATHS.append(_nx_release() < (3, 6))
    return _SNAPSHOT_PATHS[0]


def bidirectional_dijkstra(G, source, target, weight="weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    weighting = G.weighting(weight, exact=True) if weight is not None else None
    if weighting is None:
        (off, idx), w = G.adjacency, None
        roff, ridx, rw = (*G.predecessors(), None) if G.is_directed() else (off, idx, None)
    else:
        off, idx, w = G.arcs(weighting)
        roff, ridx, rw = G.predecessors(weighting) if G.is_directed() else (off, idx, w)
    raw = nxkit.bidirectional_dijkstra(off, idx, w, roff, ridx, rw, G.vertex(source),
                                       G.vertex(target), _snapshot_paths())
    if raw is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    d, path = raw
    return (int(d) if _integral(G, weight) else d, nxkit.take(G.nodes, path, 0, len(path) // 4))


def dijkstra_path_length(G, source, target, weight="weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    try:
        return single_source_dijkstra(G, source, target=target, weight=weight)[0]
    except nx.NetworkXNoPath:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}") from None


def single_source_shortest_path(G, source, cutoff=None):
    v = _vertex(G, source, nx.NodeNotFound(f"Source {source} not in G"))
    visit = _Visit(G, [v], cutoff)
    return _built(nxkit.paths, visit.nodes, visit.raw, visit._parents, None, True)


def has_path(G, source, target):
    for node in (source, target):
        if node not in G:
            raise nx.NodeNotFound(f"Source {source} or target {target} not in G"
                                  if node is source else f"Target {target} is not in G")
    return target in descendants(G, source) or source == target


def descendants(G, source):
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    visit = _Visit(G, [v])
    return set(nxkit.take(visit.nodes, visit.raw, 1, len(visit.raw) // 4))


def ancestors(G, source):
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    visit = _Visit(G, [v], reverse=G.is_directed())
    return set(nxkit.take(visit.nodes, visit.raw, 1, len(visit.raw) // 4))


# NetworkX's Bellman-Ford (its queue and its lists of tight predecessors,
# whose order its paths follow) is nxkit.bellman_ford_visit in C, over the
# adjacency-order arcs with each weight as NetworkX reads it, negative ones
# included (float64).


def _bellman_ford(G, source, weight, heuristic=True):
    """(order, dists, pred_offsets, preds) of NetworkX's Bellman-Ford from
    source; its errors."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    if weight is None:
        (off, idx), w = G.adjacency, None
    else:
        off, idx, w = G.arcs(G.weighting(weight, exact=SIGNED))
    order, dists, poff, preds, cycle = nxkit.bellman_ford_visit(off, idx, w, [G.vertex(source)],
                                                                heuristic)
    if cycle >= 0:
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return order, dists, poff, preds


def _bf_lengths(G, run, weight):
    return _built(nxkit.lengths, G.nodes, run[0], run[1], 1, _integral(G, weight, SIGNED))


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    run = _bellman_ford(G, source, weight)
    if target is None:
        return (_bf_lengths(G, run, weight), _built(nxkit.predecessor_paths, G.nodes, *run[:1],
                                                    *run[2:], 1))
    t = G.vertex(target) if target in G else -1
    order = memoryview(run[0]).cast("i")
    at = order.tolist().index(t) if t >= 0 and t in order else -1
    if at < 0:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    path = nxkit.predecessor_paths(G.nodes, run[0], run[2], run[3], 1, t)[target]
    d = memoryview(run[1]).cast("d")[at]
    return (int(d) if _integral(G, weight, SIGNED) else d, path)


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    return _bf_lengths(G, _bellman_ford(G, source, weight), weight)


def single_source_bellman_ford_path(G, source, weight="weight"):
    return single_source_bellman_ford(G, source, weight=weight)[1]


def bellman_ford_path(G, source, target, weight="weight"):
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def bellman_ford_path_length(G, source, target, weight="weight"):
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    lengths = single_source_bellman_ford_path_length(G, source, weight=weight)
    try:
        return lengths[target]
    except KeyError:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}") from None


def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight",
                                          heuristic=True):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if weight is not None and any(d.get(weight, 1) < 0 for _, _, d in
                                  nx.selfloop_edges(G._from_source(), data=True)):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    order, dists, poff, preds = _bellman_ford(G, source, weight, heuristic)
    nodes = G.nodes
    at, flat = memoryview(poff).cast("q"), memoryview(preds).cast("i")
    pred = {nodes[v]: [nodes[u] for u in flat[at[i]:at[i + 1]]]
            for i, v in enumerate(memoryview(order).cast("i"))}
    return pred, _bf_lengths(G, (order, dists), weight)


_BELLMAN_FORD = {
    "single_source_bellman_ford", "single_source_bellman_ford_path_length",
    "single_source_bellman_ford_path", "bellman_ford_path", "bellman_ford_path_length",
    "bellman_ford_predecessor_and_distance",
}

_DIJKSTRA = {
    "multi_source_dijkstra", "multi_source_dijkstra_path_length", "multi_source_dijkstra_path",
    "single_source_dijkstra", "single_source_dijkstra_path_length", "single_source_dijkstra_path",
    "dijkstra_path", "dijkstra_path_length", "bidirectional_dijkstra",
}
EXACT_FUNCTIONS.update(dict.fromkeys(_DIJKSTRA, EXACT))
EXACT_FUNCTIONS.update(dict.fromkeys(_BELLMAN_FORD, SIGNED))


def _dijkstra_can_run(name, args, kwargs):
    function = globals()[name]
    G = _graph_argument(args, kwargs)
    weight = _argument(function, args, kwargs, "weight")
    if callable(weight):
        return f"{name}: weight is a function"
    if G.is_multigraph():
        return f"{name}: a multigraph (NetworkX weighs parallel edges by the smallest)"
    cutoff = _argument(function, args, kwargs, "cutoff") if "cutoff" in _PARAMETERS[
        function] else None
    if cutoff is not None and _real(cutoff) is None:
        return f"{name}: cutoff {cutoff!r} is not a number"
    if weight is not None:
        try:
            conv = _conversion(G)
            conv.arcs(conv.weighting(weight, exact=SIGNED if name in _BELLMAN_FORD else EXACT))
        except (NotImplementedError, TypeError, KeyError, ValueError, RuntimeError) as exc:
            return f"{name}: {exc}"
    return True


# The argument that bounds each traversal's depth: None or a real number
# (NetworkX compares it with ints; libgraph's visit takes a layer count).
_LIMITS = {"bfs_edges": "depth_limit", "bfs_tree": "depth_limit",
           "bfs_predecessors": "depth_limit", "bfs_successors": "depth_limit",
           "single_source_shortest_path_length": "cutoff", "descendants_at_distance": "distance"}


def _traversal_can_run(name, args, kwargs):
    function = globals()[name]
    if name in _SORTING and _argument(function, args, kwargs, "sort_neighbors") is not None:
        return _SORTED
    limit = _LIMITS.get(name)
    if limit:
        x = _argument(function, args, kwargs, limit)
        if not isinstance(x, numbers.Real) and (x is not None or limit == "distance"):
            return f"{name}: {limit} {x!r} is not a number"
    return True


def _shortest_can_run(name, args, kwargs):
    function = globals()[name]
    G = _graph_argument(args, kwargs)
    source, target, weight, method = (_argument(function, args, kwargs, k)
                                      for k in ("source", "target", "weight", "method"))
    why = _shortest_refusal(name, G, source, target, weight, method)
    if why:
        return why
    if weight is not None and method in ("dijkstra", "bellman-ford"):
        try:
            conv = _conversion(G)
            conv.arcs(conv.weighting(weight, exact=SIGNED if method == "bellman-ford" else EXACT))
        except (NotImplementedError, TypeError, KeyError, ValueError, RuntimeError) as exc:
            return f"{name}: {exc}"
    return True


# ---- centrality ---------------------------------------------------------------------


_NEW_RESCALE = []


def _new_rescale():
    """Whether this NetworkX scales a sampled betweenness per source and
    non-source (its _rescale of 3.5 and later) rather than by n / k alone,
    and takes k == len(G) as no sample (before 3.5 it draws one)."""
    if not _NEW_RESCALE:
        _NEW_RESCALE.append(_nx_release() >= (3, 5))
    return _NEW_RESCALE[0]


def _betweenness_scales(n, normalized, directed, endpoints, sampled):
    """(scale, scale of a sampled source) as this NetworkX's _rescale
    computes them for betweenness_centrality (None: values left as they
    are); sampled: the sampled nodes, or None."""
    k = None if sampled is None else len(sampled)
    if not _new_rescale():  # NetworkX 3.4 and before
        if normalized:
            if endpoints:
                scale = None if n < 2 else 1 / (n * (n - 1))
            else:
                scale = None if n <= 2 else 1 / ((n - 1) * (n - 2))
        else:
            scale = None if directed else 0.5
        if scale is not None and k is not None:
            scale = scale * n / k
        return scale, scale
    big_n = n if endpoints else n - 1
    if big_n < 2:
        return None, None
    correction = 1 if directed else 2
    if k is None or endpoints:
        k_source = big_n if k is None else k
        scale = (1 / (k_source * (big_n - 1)) if normalized
                 else big_n / (k_source * correction))
        return (None, None) if scale == 1 else (scale, scale)
    if normalized:
        return 1 / (k * (big_n - 1)), 1 / ((k - 1) * (big_n - 1)) if k > 1 else math.nan
    return big_n / (k * correction), big_n / ((k - 1) * correction) if k > 1 else math.nan


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None,
                           *, device=None):
    n = len(G)
    if k == n and _new_rescale():
        k = None  # NetworkX 3.5's shortcut: every node, nothing drawn
    nodes = G.nodes
    sampled = None if k is None else seed.sample(list(nodes), k)
    weighting = G.weighting(None) if weight is None else G.weighting(weight, exact=EXACT)
    params = {"endpoints": bool(endpoints), "use_weights": weight is not None, "rescale": False}
    if sampled is not None:
        params["sources"] = sampled
    g = G.graph(weighting)
    raw = lg.run("betweenness_centrality", g, device=_device(device), **params)["centrality"]
    scale, scale_source = _betweenness_scales(n, normalized, G.is_directed(), endpoints, sampled)
    values = raw.tolist()
    if scale is not None and scale_source is not scale:  # sources apart (NetworkX 3.5 on)
        at = {g.vertex(v) for v in sampled}
        values = [x * (scale_source if i in at else scale) for i, x in enumerate(values)]
    elif scale is not None:
        values = [x * scale for x in values]
    return dict(zip(nodes, values))


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None, *,
                                device=None):
    import numpy  # libgraph's own arrays are numpy's: already imported
    n = len(G)
    nodes = G.nodes
    sampled = None if k is None else seed.sample(list(nodes), k)  # no shortcut for k == n
    weighting = G.weighting(None) if weight is None else G.weighting(weight, exact=EXACT)
    params = {"use_weights": weight is not None, "rescale": False}
    if sampled is not None:
        params["sources"] = sampled
    g = G.graph(weighting)
    raw = lg.run("edge_betweenness_centrality", g, device=_device(device), **params)["centrality"]
    # NetworkX scales an edge's value as a node's with endpoints
    scale, _ = _betweenness_scales(n, normalized, G.is_directed(), True, sampled)
    # G.edges(): the arcs in NetworkX's adjacency order, an undirected edge
    # once, from the endpoint that comes first
    off, idx = G.adjacency  # bytearrays: int64 offsets, int32 indices
    off, idx = numpy.frombuffer(off, numpy.int64), numpy.frombuffer(idx, numpy.int32)
    tails = numpy.repeat(numpy.arange(n, dtype=numpy.int64), numpy.diff(off))
    heads = idx.astype(numpy.int64)
    if not G.is_directed():
        tails, heads = tails[heads >= tails], heads[heads >= tails]
    # each edge's arc in g's rows, sorted by (tail, head)
    goff, gidx, _ = g.csr()
    keys = numpy.repeat(numpy.arange(n, dtype=numpy.int64), numpy.diff(goff)) * n + gidx
    values = numpy.zeros(len(tails))  # a self-loop is on no shortest path
    through = tails != heads
    values[through] = raw[numpy.searchsorted(keys, tails[through] * n + heads[through])]
    if scale is not None:
        values = values * scale
    return dict(zip(zip((nodes[u] for u in tails.tolist()), (nodes[v] for v in heads.tolist())),
                    values.tolist()))


def betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None, *,
                                  device=None):
    weighting = G.weighting(None) if weight is None else G.weighting(weight, exact=EXACT)
    g = G.graph(weighting)
    nodes = G.nodes
    known = set(nodes)
    # NetworkX's targets are a set it tests nodes against: keys not in G count nothing
    x = lg.betweenness_centrality_subset(g, list(sources), [t for t in targets if t in known],
                                         normalized, weight, device=_device(device))
    return dict(zip(nodes, x.tolist()))


def _exact_weights(name, G, weight, argument):
    """(why a weighted centrality call is declined, or None; the weights
    read exactly, a float64 buffer, or None when unweighted): a function
    for weight, a weighted multigraph, weights the conversion refuses."""
    if callable(weight):
        return f"{name}: {argument} is a function", None
    if G.is_multigraph():
        return (f"{name}: a weighted multigraph (NetworkX weighs parallel edges by the "
                f"smallest)"), None
    try:
        conv = _conversion(G)
        return None, conv.arcs(conv.weighting(weight, exact=EXACT))[2]
    except (NotImplementedError, TypeError, KeyError, ValueError, RuntimeError) as exc:
        return f"{name}: {exc}", None


def _betweenness_can_run(name, args, kwargs):
    function = globals()[name]
    G = _graph_argument(args, kwargs)
    if name == "edge_betweenness_centrality" and G.is_multigraph():
        return (f"{name}: a multigraph (NetworkX keys each parallel edge and shares its "
                f"value among them by weight)")
    weight = _argument(function, args, kwargs, "weight")
    if name == "betweenness_centrality_subset":
        why = _subset_refusal(name, G, *(_argument(function, args, kwargs, x)
                                         for x in ("sources", "targets")))
        if why:
            return why
    else:
        k = _argument(function, args, kwargs, "k")
        if k is not None and (not isinstance(k, numbers.Integral) or k < 1):
            return f"{name}: k {k!r} is not an int >= 1 (NetworkX has its own answer)"
    if weight is None:
        return True
    why, w = _exact_weights(name, G, weight, "weight")
    if why:
        return why
    if w is not None and _has_zero(w):
        return (f"{name}: a zero weight (NetworkX counts the paths through a zero-weight edge "
                f"by the order of its heap)")
    return True


def _subset_refusal(name, G, sources, targets):
    """Why a subset's sources and targets are declined, or None: they must be
    collections (reading an iterator here would consume NetworkX's), the
    sources distinct nodes of G (NetworkX counts a repeated one twice and
    raises its own error for a missing one)."""
    from collections.abc import Collection
    for what, given in (("sources", sources), ("targets", targets)):
        if not isinstance(given, Collection) or isinstance(given, (str, bytes)):
            return f"{name}: {what} is not a collection of nodes"
    try:
        distinct = len(set(sources)) == len(sources) and all(s in G for s in sources)
    except TypeError:  # an unhashable key
        distinct = False
    if not distinct:
        return f"{name}: the sources are not distinct nodes of G (NetworkX has its own answer)"
    return None


def _has_zero(weights):
    """Whether a conversion's float64 weights (a buffer) hold a zero."""
    import numpy  # libgraph's own arrays are numpy's: already imported
    return bool((numpy.frombuffer(weights, dtype=numpy.float64) == 0.0).any())


def _has_negative(weights):
    """Whether a conversion's float64 weights (a buffer) hold a negative one."""
    import numpy  # libgraph's own arrays are numpy's: already imported
    return bool((numpy.frombuffer(weights, dtype=numpy.float64) < 0.0).any())


def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, device=None):
    weighting = G.weighting(None) if distance is None else G.weighting(distance, exact=EXACT)
    g = G.graph(weighting)
    x = lg.closeness_centrality(g, distance, wf_improved, device=_device(device))
    return dict(zip(G.nodes, x.tolist()))


def harmonic_centrality(G, nbunch=None, distance=None, sources=None, *, device=None):
    weighting = G.weighting(None) if distance is None else G.weighting(distance, exact=EXACT)
    g = G.graph(weighting)
    x = lg.harmonic_centrality(g, distance, device=_device(device))
    # NetworkX's keys in the order of the set of its nodes; it starts every
    # value at the int 0 and adds 1 / d > 0 to it
    values = dict(zip(G.nodes, x.tolist()))
    return {v: values[v] or 0 for v in set(G.nodes)}


def _closeness_can_run(name, args, kwargs):
    function = globals()[name]
    G = _graph_argument(args, kwargs)
    for given in ("u",) if name == "closeness_centrality" else ("nbunch", "sources"):
        if _argument(function, args, kwargs, given) is not None:
            return f"{name}: {given} is given (NetworkX's searches from a few nodes are as fast)"
    distance = _argument(function, args, kwargs, "distance")
    if distance is None:
        return True
    return _exact_weights(name, G, distance, "distance")[0] or True


def _degrees(G, kind):
    """Each node's degree as NetworkX counts it, from the conversion's arcs
    in NetworkX's order (int64 offsets, int32 heads): kind "out", "in", or
    "all" (a directed graph's in + out; an undirected graph's, where a
    self-loop counts twice)."""
    import numpy  # libgraph's own arrays are numpy's: already imported
    off, idx = (numpy.frombuffer(b, dtype=t) for b, t in zip(G.adjacency, ("<i8", "<i4")))
    n = len(off) - 1
    out = numpy.diff(off)
    if kind == "out":
        return out
    if kind == "in" or G.is_directed():
        into = numpy.bincount(idx, minlength=n)
        return into if kind == "in" else out + into
    rows = numpy.repeat(numpy.arange(n, dtype=numpy.int32), out)
    return out + numpy.bincount(rows[idx == rows], minlength=n)


def _degree_centrality(G, kind):
    if len(G) <= 1:
        return {v: 1 for v in G.nodes}
    s = 1.0 / (len(G) - 1.0)
    return dict(zip(G.nodes, (d * s for d in _degrees(G, kind).tolist())))


def degree_centrality(G):
    return _degree_centrality(G, "all")


def in_degree_centrality(G):
    return _degree_centrality(G, "in")


def out_degree_centrality(G):
    return _degree_centrality(G, "out")


def _degree_can_run(name, args, kwargs):
    if _graph_argument(args, kwargs).is_multigraph():
        return f"{name}: a multigraph (its parallel edges are one arc here)"
    return True


def _node_values(G, values):
    """A dict {node: number} as a float64 array in the graph's node order
    (a missing node is NetworkX's KeyError)."""
    import numpy  # libgraph's own arrays are numpy's: already imported
    return None if values is None else numpy.array([values[v] for v in G.nodes], dtype=float)


def _iterated(function, max_iter, *args, **kwargs):
    """function's result, with libgraph's NotConverged as NetworkX's
    PowerIterationFailedConvergence."""
    try:
        return function(*args, **kwargs)
    except lg.NotConverged:
        raise nx.PowerIterationFailedConvergence(max_iter) from None


def _weighted(G, weight):
    return G.graph(G.weighting(None) if weight is None else G.weighting(weight, exact=EXACT))


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None, *,
                           device=None):
    if len(G.nodes) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None and all(v == 0 for v in nstart.values()):
        raise nx.NetworkXError("initial vector cannot have all zero values")
    x = _iterated(lg.eigenvector_centrality, max_iter, _weighted(G, weight), max_iter, tol,
                  _node_values(G, nstart), weight is not None, device=_device(device))
    return dict(zip(G.nodes, x.tolist()))


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None,
                    normalized=True, weight=None, *, device=None):
    if len(G.nodes) == 0:
        return {}
    try:
        beta = float(beta)
    except (TypeError, ValueError, AttributeError) as err:
        if not isinstance(beta, Mapping) or set(beta) != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node") from err
        beta = _node_values(G, beta)
    x = _iterated(lg.katz_centrality, max_iter, _weighted(G, weight), alpha, beta, max_iter, tol,
                  _node_values(G, nstart), normalized, weight is not None,
                  device=_device(device))
    return dict(zip(G.nodes, x.tolist()))


# The _numpy forms' answers are an eigenvector (ARPACK) and a linear solve;
# libgraph reaches the same vectors by iterating until an iteration's L1
# change is below n * _TIGHT_TOL, within _TIGHT_ITERATIONS (else the call is
# declined at run time and NetworkX's own runs).
_TIGHT_TOL = 1e-14
_TIGHT_ITERATIONS = 5000


def _tight(function, name, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except lg.NotConverged:
        raise NotImplementedError(
            f"{name}: libgraph's power iteration did not converge to its limit in "
            f"{_TIGHT_ITERATIONS} iterations; {_ELSEWHERE}") from None


def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0, *, device=None):
    """NetworkX's principal eigenvector (of A^T, unit length, positive sum),
    reached by libgraph's power iteration on A + I run to its limit:
    max_iter and tol are ARPACK's, not used."""
    if len(G.nodes) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    g = _weighted(G, weight)
    dev = _device(device)
    parts = (lg.number_strongly_connected_components(g, device=dev) if G.is_directed()
             else lg.number_connected_components(g, device=dev))
    if parts != 1:
        raise nx.AmbiguousSolution("`eigenvector_centrality_numpy` does not give consistent "
                                   "results for disconnected graphs")
    x = _tight(lg.eigenvector_centrality, "eigenvector_centrality_numpy", g,
               _TIGHT_ITERATIONS, _TIGHT_TOL, None, weight is not None, device=dev)
    return dict(zip(G.nodes, x.tolist()))


def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None, *,
                          device=None):
    """NetworkX's solution of (I - alpha A^T) x = beta, reached by libgraph's
    Katz iteration run to its limit (declined when it diverges: alpha at or
    above 1 / the largest eigenvalue, where NetworkX's solve still answers);
    the keys in beta's order when beta is a dict, as NetworkX's."""
    if len(G.nodes) == 0:
        return {}
    import numpy  # libgraph's own arrays are numpy's: already imported
    nodes = list(G.nodes)
    if isinstance(beta, Mapping):
        if set(beta) != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        nodes = list(beta)
        b = _node_values(G, beta)
    else:
        if not isinstance(beta, numbers.Real):
            raise nx.NetworkXError("beta must be a number")
        b = float(beta)
    x = _tight(lg.katz_centrality, "katz_centrality_numpy", _weighted(G, weight), alpha, b,
               _TIGHT_ITERATIONS, _TIGHT_TOL, None, False, weight is not None,
               device=_device(device))
    if normalized:
        x = x / (numpy.sign(x.sum()) * numpy.linalg.norm(x))
    value = dict(zip(G.nodes, x.tolist()))
    return {v: value[v] for v in nodes}


def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True, *, device=None):
    if len(G.nodes) == 0:
        return {}, {}
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    h, a = _iterated(lg.hits, max_iter, _weighted(G, "weight"), max_iter, tol,
                     _node_values(G, nstart), normalized, weight="weight",
                     device=_device(device))
    return dict(zip(G.nodes, h.tolist())), dict(zip(G.nodes, a.tolist()))


def _power_can_run(name, args, kwargs):
    """eigenvector_centrality, katz_centrality (and their _numpy forms) and
    hits decline multigraphs (NetworkX's iterations count a neighbour once,
    its hits and _numpy forms the parallel edges' sum), weights the
    conversion cannot read exactly, and for hits negative weights (NetworkX's
    SVD takes any)."""
    G = _graph_argument(args, kwargs)
    if G.is_multigraph():
        return f"{name}: a multigraph (its parallel edges are one arc here)"
    weight = "weight" if name == "hits" else _argument(globals()[name], args, kwargs, "weight")
    if weight is None:
        return True
    why, w = _exact_weights(name, G, weight, "weight")
    if why:
        return why
    if name == "hits" and w is not None and _has_negative(w):
        return f"{name}: a negative weight (libgraph's HITS takes weights >= 0)"
    return True


def _unweighted(G):
    return G.graph(G.weighting(None))


def _one_node(values, nodes):
    """Whether nodes is one node (NetworkX's `nodes in G`, False for what
    cannot be a key)."""
    try:
        return nodes in values
    except TypeError:
        return False


def triangles(G, nodes=None):
    t = dict(zip(G.nodes, lg.triangles(_unweighted(G)).tolist()))
    if nodes is None:
        return t
    if _one_node(t, nodes):
        return t[nodes]
    return {v: t[v] for v in _node_bunch(G, nodes)}


def _node_bunch(G, nodes):
    """NetworkX's G.nbunch_iter(nodes): the nodes of nodes that are in G, in
    nodes' order, each as often as given (NetworkX's dict keeps one)."""
    present = set(G.nodes)
    return [v for v in nodes if v in present]


def clustering(G, nodes=None, weight=None):
    # NetworkX's 0 without triangles is the int 0
    c = {v: x or 0 for v, x in zip(G.nodes, lg.clustering(_unweighted(G)).tolist())}
    if nodes is None:
        return c
    if _one_node(c, nodes):
        return c[nodes]
    return {v: c[v] for v in _node_bunch(G, nodes)}


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    c = lg.clustering(_unweighted(G)).tolist()
    if nodes is not None:
        at = dict(zip(G.nodes, c))
        c = [at[v] for v in dict.fromkeys(_node_bunch(G, nodes))]
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    return lg.transitivity(_unweighted(G)) or 0  # NetworkX's int 0 without triangles


def _cluster_can_run(name, args, kwargs):
    G = _graph_argument(args, kwargs)
    if G.is_directed():
        return f"{name}: a directed graph (NetworkX's directed clustering is not libgraph's)"
    function = globals()[name]
    if name != "triangles" and G.is_multigraph():
        return f"{name}: a multigraph (NetworkX raises NetworkXNotImplemented)"
    if name == "triangles" and G.is_multigraph() and _argument(function, args, kwargs,
                                                               "nodes") is not None:
        return f"{name}: nodes of a multigraph (NetworkX raises NetworkXNotImplemented)"
    if name in ("clustering", "average_clustering") and \
            _argument(function, args, kwargs, "weight") is not None:
        return f"{name}: weight is given (libgraph's clustering is unweighted)"
    return True


_CLUSTER = {"triangles", "clustering", "average_clustering", "transitivity"}
_POWER = {"eigenvector_centrality", "katz_centrality", "hits", "eigenvector_centrality_numpy",
          "katz_centrality_numpy"}
EXACT_FUNCTIONS.update(dict.fromkeys(_POWER, EXACT))
_DEGREES = {"degree_centrality", "in_degree_centrality", "out_degree_centrality"}
_CENTRALITY = {"betweenness_centrality", "edge_betweenness_centrality",
               "betweenness_centrality_subset", "closeness_centrality", "harmonic_centrality"}
EXACT_FUNCTIONS.update(dict.fromkeys(_CENTRALITY, EXACT))


_SORTING = {"bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"}


_TRAVERSALS = {
    "bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers",
    "descendants_at_distance", "single_source_shortest_path_length",
    "single_source_shortest_path", "has_path", "descendants", "ancestors",
    "bidirectional_shortest_path",
}

_SHORTEST = {"shortest_path", "shortest_path_length"}
EXACT_FUNCTIONS.update(dict.fromkeys(_SHORTEST, EXACT))

_FUNCTIONS = {
    "pagerank", "connected_components", "number_connected_components", "is_connected",
    "node_connected_component", "weakly_connected_components",
    "number_weakly_connected_components", "is_weakly_connected", "strongly_connected_components",
    "number_strongly_connected_components", "is_strongly_connected",
} | _TRAVERSALS | _DIJKSTRA | _BELLMAN_FORD | _SHORTEST | _CENTRALITY | _DEGREES | _POWER | _CLUSTER

# Each function checks its arguments first (_declining): NetworkX shows a
# call asked for by name the reason libgraph declines it.
for _name in _FUNCTIONS:
    globals()[_name] = _declining(_name, globals()[_name])
