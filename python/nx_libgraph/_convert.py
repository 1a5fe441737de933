"""A NetworkX graph as the backend holds it (LibgraphGraph), and the
conversions NetworkX asks the backend for: its adjacency read in C into
arrays (nxkit.adjacency_csr, as Graph.from_networkx), each weighting a
call asks for read once, the libgraph.Graph built on first use, and the
conversion cached on the NetworkX graph (interface.py says when)."""

import gc
import weakref

import networkx as nx

import libgraph as lg
from libgraph import nxkit

BACKEND = "libgraph"

# The weighting of a multigraph's arcs by their number of parallel edges (an
# unweighted NetworkX PageRank counts them); the other weightings are None
# (no weights) and (attribute, default).
COUNTS = ("parallel edges",)
# The marks of a weighting whose weights must be exact, as NetworkX holds
# them (float64): EXACT for weights >= 0 (Dijkstra), SIGNED for any finite
# ones (Bellman-Ford) (LibgraphGraph.weighting); and the functions that
# convert with one, by name -> mark (interface.py fills it in).
EXACT = "exact"
SIGNED = "signed"
EXACT_FUNCTIONS = {}


def _is_view(G):
    """Whether G is a NetworkX graph view (G.subgraph, edge_subgraph,
    restricted_view, reverse, to_undirected(as_view=True), ...): it shows
    another graph (G._graph), whose changes clear that graph's
    __networkx_cache__ and not the view's."""
    return hasattr(G, "_graph")


def _dicts(adj, multigraph, directed):
    """An adjacency (G._adj, G._pred) as the dicts adjacency_csr reads: a
    graph's own, or what a view shows copied into dicts, each row (and a
    multigraph's parallel edges) in the order the view gives them, which
    is the order NetworkX's own functions see.  An undirected view of a
    directed graph may show an edge's two arcs with different data (u -> v's
    in u's row, v -> u's in v's); NetworkX's matrices (its PageRank's) take
    the edge's data from the row it meets first, in adjacency order, and so
    do both arcs here."""
    if isinstance(adj, dict):
        return adj
    if multigraph:
        rows = {u: {v: dict(keys) for v, keys in row.items()} for u, row in adj.items()}
    else:
        rows = {u: dict(row) for u, row in adj.items()}
    if not directed:
        seen = set()
        for u, row in rows.items():
            for v, data in row.items():
                if v not in seen and v != u and u in rows[v]:
                    rows[v][u] = data
            seen.add(u)
    return rows


class LibgraphGraph:
    """A NetworkX graph converted for libgraph: ``nodes`` (the node keys in
    vertex order) and ``index`` (node -> vertex id); per weighting, the arcs
    in NetworkX's adjacency order (arcs()) and the libgraph.Graph the
    kernels read (graph()), each made on first use; ``adjacency``, the arcs
    without weights (what the traversals read)."""

    __networkx_backend__ = BACKEND

    def __init__(self, G, graph_attrs=None):
        self.nodes = list(G)
        self.index = None
        self._directed = G.is_directed()
        self._multigraph = G.is_multigraph()
        self.weight = None  # the edge attribute the conversion was asked for, or None
        self.graph_attrs = dict(graph_attrs or {})
        self.__networkx_cache__ = {}
        self._source = weakref.ref(G)
        self._arcs = {}  # weighting -> (offsets, indices, weights or None)
        self._trouble = {}  # weighting -> why libgraph cannot take those weights
        self._graphs = {}  # weighting -> libgraph.Graph
        self._pred = {}  # weighting -> the in-arcs (predecessors())
        self._ints = {}  # weighting -> whether its weights are all ints (integral())

    def weighting(self, weight, default=1.0, exact=False):
        """The weighting of a call's ``weight`` argument: None (no weights),
        COUNTS for a multigraph unweighted, else (weight, default), or with
        exact (weight, default, EXACT): each weight exactly as NetworkX
        gives it (float64), for the sums of the shortest paths; exact=SIGNED
        (weight, default, SIGNED) takes negative weights too (Bellman-Ford)."""
        if weight is None:
            return COUNTS if self._multigraph else None
        if exact:
            return (weight, float(default), SIGNED if exact is SIGNED else EXACT)
        return (weight, float(default))

    def arcs(self, weighting=None):
        """(offsets, indices, weights) of the arcs, rows in NetworkX's
        adjacency order, read once; NotImplementedError, saying why, for
        weights libgraph cannot take as NetworkX gives them (negative, not
        finite, outside float32's normal range: adjacency_csr's strict)."""
        arcs = self._arcs.get(weighting)
        if arcs is not None:
            return arcs
        if weighting in self._trouble:
            raise NotImplementedError(self._trouble[weighting])
        if weighting is None and self._arcs:  # any weighting's arcs, without weights
            off, idx, _ = next(iter(self._arcs.values()))
            arcs = (off, idx, None)
        else:
            try:
                index, off, idx, w, ints = self._read(self._from_source()._adj, self._directed,
                                                      weighting)
            except ValueError as exc:
                if weighting in (None, COUNTS):
                    raise
                self._trouble[weighting] = why = f"edge attribute {weighting[0]!r}: {exc}"
                raise NotImplementedError(why) from None
            if self.index is None:
                self.index = index
            arcs = (off, idx, w)
            self._ints[weighting] = ints
        self._arcs[weighting] = arcs
        return arcs

    def integral(self, weighting):
        """Whether NetworkX's sums of a weighting's weights are ints: none
        (every arc 1), or each an int (adjacency_csr's ints; read by arcs())."""
        if weighting in (None, COUNTS):
            return True
        self.arcs(weighting)
        return self._ints.get(weighting, False)

    def graph(self, weighting=None):
        """The libgraph.Graph (sorted rows, checked) of a weighting, made on
        first use."""
        g = self._graphs.get(weighting)
        if g is None:
            off, idx, w = self.arcs(weighting)
            g = nxkit.graph_from_adjacency(self.nodes, self.index, off, idx, w, self._directed)
            self._graphs[weighting] = g
        return g

    @property
    def adjacency(self):
        """(offsets, indices) with each row in NetworkX's adjacency order: the
        traversals follow it, as NetworkX's own do."""
        return self.arcs(None)[:2]

    def vertex(self, node):
        if self.index is None:
            self.arcs(None)
        return self.index[node]

    def _from_source(self):
        G = self._source()
        if G is None:
            raise RuntimeError("the NetworkX graph this conversion came from is gone")
        return G

    def predecessors(self, weighting=None):
        """The in-arcs (G._pred) in NetworkX's order, read once per
        weighting: (offsets, indices), or with a weighting (offsets,
        indices, weights), each arc (u, v) weighing what arcs() gives it."""
        arcs = self._pred.get(weighting)
        if arcs is None:
            self.arcs(weighting)  # the out-arcs first: their refusals, and the index
            _, off, idx, w, _ = self._read(self._from_source()._pred, True, weighting)
            self._pred[weighting] = arcs = (off, idx, w)
        return arcs if weighting is not None else arcs[:2]

    def _read(self, adj, directed, weighting):
        """adjacency_csr of an adjacency dict (G._adj or G._pred) with a
        weighting's weights, and whether they are all ints (exact ones)."""
        plain = weighting in (None, COUNTS)
        weight, default = (None, 1.0) if plain else weighting[:2]
        mark = None if plain else weighting[-1]
        wide = mark in (EXACT, SIGNED)
        out = nxkit.adjacency_csr(self.nodes, _dicts(adj, self._multigraph, directed), weight,
                                  default, self._multigraph, count_parallel=weighting is COUNTS,
                                  strict=mark is not SIGNED, wide=wide, ints=wide)
        return out if wide else (*out, False)

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node):
        if self.index is None:
            self.arcs(None)
        try:
            return node in self.index
        except TypeError:
            return False

    def number_of_nodes(self):
        return len(self.nodes)

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        return f"<LibgraphGraph: {len(self)} nodes, {kind}>"


# should_run's conversion of the graph it looked at, (weak reference to the
# NetworkX graph, its LibgraphGraph), handed to the convert_from_nx of the
# same call (NetworkX calls can_run, then should_run, then converts) so that
# the graph is read once; every can_run empties it first.
_handoff = []


def _cached(G):
    """The LibgraphGraph NetworkX keeps in G's cache, or None.  None for a
    view: the view's cache is not cleared when the graph it shows changes."""
    if not nx.config.cache_converted_graphs or _is_view(G):
        return None
    cache = getattr(G, "__networkx_cache__", None)
    for conv in ((cache or {}).get("backends", {}).get(BACKEND) or {}).values():
        if isinstance(conv, LibgraphGraph):
            return conv
    return None


def _conversion(G):
    """G's LibgraphGraph: G itself, the cached one, the one should_run made
    for this call, or a new one (left for convert_from_nx)."""
    if isinstance(G, LibgraphGraph):
        return G
    conv = _cached(G)
    if conv is None and _handoff and _handoff[0][0]() is G:
        conv = _handoff[0][1]
    if conv is None:
        conv = LibgraphGraph(G)
    _handoff[:] = [(weakref.ref(G), conv)]
    return conv


def _forget_view(G):
    """Drops the conversions NetworkX cached on a view (see _cached): each
    call on a view converts what the view shows then."""
    if _is_view(G):
        cache = getattr(G, "__networkx_cache__", None)
        if cache:
            cache.get("backends", {}).pop(BACKEND, None)


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                    preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                    graph_name=None):
    """G as a LibgraphGraph, with the weights of edge_attrs {attribute:
    default} read (the first attribute; libgraph keeps one weight an arc);
    without edge_attrs, the arcs unweighted (a multigraph's: weighing their
    number of parallel edges).  Any other weighting is read when a call
    asks for it.  Weights libgraph cannot take do not fail the conversion:
    the call that asks for them does (_refusal declines it first)."""
    if isinstance(G, LibgraphGraph):
        return G
    conv = _conversion(G)
    _handoff.clear()
    if preserve_graph_attrs:
        conv.graph_attrs = dict(G.graph)
    if edge_attrs:
        weight, default = next(iter(edge_attrs.items()))
        conv.weight = weight
        weighting = conv.weighting(weight, 1.0 if default is None else default,
                                   EXACT_FUNCTIONS.get(name, False))
    else:
        weighting = conv.weighting(None)
    try:
        conv.arcs(weighting)
    except NotImplementedError:
        conv.arcs(None)
    return conv


def convert_to_nx(obj, *, name=None):
    """A LibgraphGraph back as a NetworkX graph (its arcs, and the weights
    of the attribute it was converted for); any other result unchanged."""
    if not isinstance(obj, LibgraphGraph):
        return obj
    G = nx.DiGraph() if obj.is_directed() else nx.Graph()
    G.graph.update(obj.graph_attrs)
    nodes = obj.nodes
    G.add_nodes_from(nodes)
    weighting = obj.weighting(obj.weight) if obj.weight is not None else None
    try:
        g = obj.graph(weighting)
    except NotImplementedError:
        g = obj.graph(None)
    off, idx, w = g.csr()
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
