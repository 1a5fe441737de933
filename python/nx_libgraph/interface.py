"""The backend NetworkX calls (the ``networkx.backends`` entry point): graph
conversion, the algorithms, and can_run / should_run.

A NetworkX graph becomes a LibgraphGraph: its adjacency dicts read in C
into arrays (_libgraph.adjacency_csr, as Graph.from_networkx), vertex i
being node ``nodes[i]`` in NetworkX's node order; the libgraph.Graph the
kernels need is built from them on first use.  NetworkX caches the
conversion on the original graph (``G.__networkx_cache__``) while
``nx.config.cache_converted_graphs`` is on, so later calls on an unchanged
graph do not convert again.  Results are
NetworkX's types: dicts keyed by node, sets and generators of sets of nodes,
in NetworkX's order.
"""

import gc
import math
import weakref

import networkx as nx

import libgraph as lg
from libgraph import _libgraph

BACKEND = "libgraph"

# Graphs of fewer nodes than this go back to NetworkX (should_run): the
# conversion costs more than the call saves.  Measured on the 2-core machine
# (random graphs of 4 n edges, a fresh conversion each call, best of 7):
# PageRank with libgraph is faster from 10 nodes on (0.05 against 0.48 ms),
# connected components from about 200 (100 nodes: 0.062 against 0.040 ms;
# 300: 0.124 against 0.151 ms), the traversals from about 200 too
# (bfs_edges: 0.100 against 0.100 ms at 200, 0.133 against 0.181 at 300).
SMALL_GRAPH = {"pagerank": 0}
SMALL_GRAPH_DEFAULT = 200


class LibgraphGraph:
    """A NetworkX graph converted for libgraph: ``nodes`` (the node keys in
    vertex order) and ``index`` (node -> vertex id), the arcs in NetworkX's
    adjacency order (``adjacency``: what the traversals read), and ``graph``,
    the libgraph.Graph the kernels read, built from them on first use."""

    __networkx_backend__ = BACKEND

    def __init__(self, nodes, index, arrays, directed, multigraph, weight, graph_attrs=None,
                 source=None):
        self.nodes = nodes
        self.index = index
        self._arrays = arrays  # adjacency_csr's offsets, indices, weights
        # (offsets, indices) with each row in NetworkX's adjacency order: the
        # traversals follow it, as NetworkX's own do
        self.adjacency = arrays[:2]
        self._graph = None
        self._pred = None
        self._directed = directed
        self._multigraph = multigraph
        self.weight = weight  # the edge attribute the weights came from, or None
        self.graph_attrs = dict(graph_attrs or {})
        self.__networkx_cache__ = {}
        self._source = weakref.ref(source) if source is not None else None
        self._counted = None

    @property
    def graph(self):
        """The libgraph.Graph (sorted rows, checked), made on first use."""
        if self._graph is None:
            off, idx, w = self._arrays
            self._graph = lg.Graph._from_adjacency(self.nodes, self.index, off, idx, w,
                                                   self._directed)
        return self._graph

    def vertex(self, node):
        return self.index[node]

    def counted(self):
        """A multigraph whose arcs weigh their number of parallel edges, as an
        unweighted NetworkX call counts them.  NetworkX may hand the backend a
        cached conversion that carries weights instead (it reuses one with
        more edge attributes than a call needs): the counts are then read
        again from the NetworkX graph, once."""
        if self.weight is None:
            return self.graph
        if self._counted is None:
            self._counted = lg.Graph.from_networkx(self._from_source(), weight=None)
        return self._counted

    def _from_source(self):
        G = self._source() if self._source is not None else None
        if G is None:
            raise RuntimeError("the NetworkX graph this conversion came from is gone")
        return G

    def predecessors(self):
        """The in-adjacency (G._pred) in NetworkX's order, read once."""
        if self._pred is None:
            G = self._from_source()
            _, off, idx, _ = _libgraph.adjacency_csr(self.nodes, G._pred)
            self._pred = (off, idx)
        return self._pred

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node):
        try:
            return node in self.index
        except TypeError:
            return False

    def number_of_nodes(self):
        return len(self.nodes)

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        return f"<LibgraphGraph: {len(self)} nodes, {kind}>"


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                    preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                    graph_name=None):
    """G as a LibgraphGraph.  edge_attrs {attribute: default}: the weights
    (the first attribute; libgraph keeps one weight an arc); None: none (a
    multigraph's arcs then weigh their number of parallel edges).
    preserve_edge_attrs=True means the "weight" attribute."""
    if isinstance(G, LibgraphGraph):
        return G
    weight, default = None, 1.0
    if edge_attrs:
        weight, default = next(iter(edge_attrs.items()))
        default = 1.0 if default is None else default
    elif preserve_edge_attrs:
        weight = "weight"
    nodes = list(G)
    index, off, idx, w = _libgraph.adjacency_csr(nodes, G._adj, weight, float(default),
                                                 G.is_multigraph(),
                                                 count_parallel=G.is_multigraph())
    return LibgraphGraph(nodes, index, (off, idx, w), G.is_directed(), G.is_multigraph(),
                         weight, G.graph if preserve_graph_attrs else None, G)


def convert_to_nx(obj, *, name=None):
    """A LibgraphGraph back as a NetworkX graph (its arcs and weights); any
    other result unchanged."""
    if not isinstance(obj, LibgraphGraph):
        return obj
    G = nx.DiGraph() if obj.is_directed() else nx.Graph()
    G.graph.update(obj.graph_attrs)
    nodes = obj.nodes
    G.add_nodes_from(nodes)
    off, idx, w = obj.graph.csr()
    off, idx = off.tolist(), idx.tolist()
    w = None if w is None else w.tolist()
    attr = obj.weight or "weight"
    for u in range(len(nodes)):
        for e in range(off[u], off[u + 1]):
            if w is None:
                G.add_edge(nodes[u], nodes[idx[e]])
            else:
                G.add_edge(nodes[u], nodes[idx[e]], **{attr: w[e]})
    return G


def _built(make, *args):
    """make(*args) with Python's cyclic collector paused: it builds a result
    of up to millions of containers (sets, tuples) that hold no cycles, and
    the collections their allocations trigger each walk every object alive,
    NetworkX's graph included (a kron:18 graph: 0.65 s, against 18 ms for
    the components' sets themselves).  A plain try/finally: as a
    contextlib context manager it cost 10 ms more a call there."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return make(*args)
    finally:
        if enabled:
            gc.enable()


# ---- where a call runs ------------------------------------------------------------


def _device(device):
    """The device of a call: its own, else the backend's configuration."""
    if device is not None:
        return device
    config = getattr(nx.config.backends, BACKEND, None)
    return getattr(config, "device", "auto") if config is not None else "auto"


def can_run(name, args, kwargs):
    """True, or a string saying why not: the traversals decline
    sort_neighbors, and shortest_path_length runs from one source, unweighted."""
    if name not in _FUNCTIONS:
        return f"libgraph has no {name}"
    if name in _TRAVERSALS:
        return _traversal_can_run(name, args, kwargs)
    return True


def should_run(name, args, kwargs):
    """False, with the reason, for a NetworkX graph too small for the
    conversion to pay (SMALL_GRAPH, measured); True for a graph already
    converted (or cached) and for larger ones."""
    G = args[0] if args else kwargs.get("G")
    if isinstance(G, LibgraphGraph):
        return True
    cache = getattr(G, "__networkx_cache__", None) or {}
    if cache.get("backends", {}).get(BACKEND):
        return True
    try:
        n = len(G)
    except TypeError:
        return True
    small = SMALL_GRAPH.get(name, SMALL_GRAPH_DEFAULT)
    if n < small:
        return (f"the graph has {n} nodes (< {small}): converting it costs more than "
                f"NetworkX's own {name}")
    return True


# ---- PageRank -----------------------------------------------------------------------


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
    g = G.counted() if weight is None and G.is_multigraph() else G.graph
    personalization = _node_vector(G, personalization)
    if personalization is not None and not any(personalization.values()):
        raise ZeroDivisionError("float division by zero")  # NetworkX's own error
    try:
        x = lg.pagerank(g, alpha, personalization, max_iter, tol,
                        _node_vector(G, nstart),
                        # a multigraph's arcs weigh their parallel edges even unweighted
                        weight=weight is not None or G.is_multigraph(),
                        dangling=_node_vector(G, dangling), device=_device(device))
    except lg.NotConverged:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(g.nodes, x.tolist()))


# ---- connected components -----------------------------------------------------------


def _component_sets(G, device):
    """The components as sets of nodes, in NetworkX's order (by each one's
    first node in node order: libgraph labels a component by its smallest
    vertex id), built in C."""
    labels = lg.connected_components(G.graph, device=_device(device))
    return _built(_libgraph.components, G.nodes, labels)


def connected_components(G, *, device=None):
    return (c for c in _component_sets(G, device))


def number_connected_components(G, *, device=None):
    return lg.number_connected_components(G.graph, device=_device(device))


def is_connected(G, *, device=None):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return number_connected_components(G, device=device) == 1


def node_connected_component(G, n, *, device=None):
    if n not in G:
        raise KeyError(n)
    labels = lg.connected_components(G.graph, device=_device(device))
    label = labels[G.vertex(n)]
    return {node for node, x in zip(G.nodes, labels.tolist()) if x == label}


# libgraph's components of a directed graph are its weak ones: NetworkX's
# decorators have already refused the wrong kind of graph for each name
weakly_connected_components = connected_components
number_weakly_connected_components = number_connected_components
is_weakly_connected = is_connected


# ---- traversals ----------------------------------------------------------------------
#
# NetworkX's traversals return nodes in the order its sequential search finds
# them (each layer parent by parent, each parent's neighbours in adjacency
# order), and tests and users rely on it; _libgraph.bfs_visit makes that
# same visit in C over the adjacency-order CSR kept with the conversion.


_SORTED = "sort_neighbors: libgraph's traversal follows NetworkX's adjacency order only"


class _Visit:
    """One visit: nodes in order, each one's discoverer, the layers' ends."""

    def __init__(self, G, first, depth_limit=None, reverse=False):
        off, idx = G.predecessors() if reverse else G.adjacency
        # NetworkX expands while depth < depth_limit: ceil of a fractional limit
        limit = -1 if depth_limit is None else max(math.ceil(depth_limit), 0)
        self.raw, self._parents, self.ends = _libgraph.bfs_visit(off, idx, first, limit)
        self.nodes = G.nodes

    def edges(self, form="edges"):
        """The tree's edges (parent, node) in visit order; form "reversed":
        (node, parent); "successors": (parent, [its children])."""
        return _built(_libgraph.tree_edges, self.nodes, self.raw, self._parents, form)

    def layer(self, i):
        """The nodes of layer i, in visit order."""
        return _libgraph.take(self.nodes, self.raw, self.ends[i - 1] if i else 0, self.ends[i])

    def layers(self):
        for i in range(len(self.ends)):
            yield self.layer(i)


def _vertex(G, source, error):
    if source not in G:
        raise error
    return G.vertex(source)


def _edge_visit(G, source, reverse, depth_limit, sort_neighbors=None):
    if sort_neighbors is not None:
        raise NotImplementedError(_SORTED)
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    return _Visit(G, [v], depth_limit, reverse and G.is_directed())


# The generators check their arguments and search when called, so that
# NetworkX sees a refusal (NotImplementedError) while it can still fall back.


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    return (e for e in _edge_visit(G, source, reverse, depth_limit, sort_neighbors).edges())


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    edges = _edge_visit(G, source, reverse, depth_limit, sort_neighbors).edges()
    T = nx.DiGraph()
    T.add_node(source)
    # NetworkX's own graph building, its dicts made with the collector paused
    _built(T.add_edges_from, edges)
    return T


def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    pairs = _edge_visit(G, source, False, depth_limit, sort_neighbors).edges("reversed")
    return (pair for pair in pairs)


def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    groups = _edge_visit(G, source, False, depth_limit, sort_neighbors).edges("successors")
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
    yield first
    yield from layers


def descendants_at_distance(G, source, distance):
    v = _vertex(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    if distance < 0:
        return set()
    visit = _Visit(G, [v], distance)
    if distance >= len(visit.ends):
        return set()
    return set(visit.layer(distance))


def single_source_shortest_path_length(G, source, cutoff=None):
    v = _vertex(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    visit = _Visit(G, [v], None if cutoff is None or cutoff == float("inf") else cutoff)
    return _built(_libgraph.levels, visit.nodes, visit.raw, visit.ends)


def _path_length_refusal(source=None, target=None, weight=None, method="dijkstra"):
    """Why shortest_path_length with these arguments is not libgraph's, or None."""
    if source is None or target is not None:
        return "shortest_path_length: only from one source to every node"
    if weight is not None:
        return "shortest_path_length: only unweighted (weight=None)"
    return None


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    refusal = _path_length_refusal(source, target, weight, method)
    if refusal:  # asked for by name: NetworkX reports it
        raise NotImplementedError(refusal)
    return single_source_shortest_path_length(G, source)


def _traversal_can_run(name, args, kwargs):
    if kwargs.get("sort_neighbors") is not None:
        return _SORTED
    if name == "shortest_path_length":
        given = {k: v for k, v in kwargs.items() if k in ("source", "target", "weight", "method")}
        return _path_length_refusal(*args[1:], **given) or True
    return True


_TRAVERSALS = {
    "bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers",
    "descendants_at_distance", "single_source_shortest_path_length", "shortest_path_length",
}

_FUNCTIONS = {
    "pagerank", "connected_components", "number_connected_components", "is_connected",
    "node_connected_component", "weakly_connected_components",
    "number_weakly_connected_components", "is_weakly_connected",
} | _TRAVERSALS
