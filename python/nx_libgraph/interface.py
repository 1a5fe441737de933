"""The backend NetworkX calls (the ``networkx.backends`` entry point): graph
conversion, the algorithms, and can_run / should_run.

A NetworkX graph becomes a LibgraphGraph: a libgraph.Graph built in C from
the adjacency dicts (Graph.from_networkx), vertex i being node ``nodes[i]``
in NetworkX's node order.  NetworkX caches it on the original graph
(``G.__networkx_cache__``) while ``nx.config.cache_converted_graphs`` is on,
so later calls on an unchanged graph do not convert again.  Results are
NetworkX's types: dicts keyed by node, sets and generators of sets of nodes,
in NetworkX's order.
"""

import weakref

import networkx as nx

import libgraph as lg

BACKEND = "libgraph"

# Graphs of fewer nodes than this go back to NetworkX (should_run): the
# conversion costs more than the call saves.  Measured on the 2-core machine
# (random graphs of 4 n edges, a fresh conversion each call, best of 7):
# PageRank with libgraph is faster from 10 nodes on (0.05 against 0.48 ms),
# connected components from about 200 (100 nodes: 0.062 against 0.040 ms;
# 300: 0.124 against 0.151 ms).
SMALL_GRAPH = {"pagerank": 0}
SMALL_GRAPH_DEFAULT = 200


class LibgraphGraph:
    """A NetworkX graph converted for libgraph: ``graph`` is the
    libgraph.Graph (``graph.nodes``: the node keys in vertex order)."""

    __networkx_backend__ = BACKEND

    def __init__(self, graph, directed, multigraph, weight, graph_attrs=None, source=None):
        self.graph = graph
        self._directed = directed
        self._multigraph = multigraph
        self.weight = weight  # the edge attribute the weights came from, or None
        self.graph_attrs = dict(graph_attrs or {})
        self.__networkx_cache__ = {}
        self._source = weakref.ref(source) if source is not None else None
        self._counted = None

    def counted(self):
        """A multigraph whose arcs weigh their number of parallel edges, as an
        unweighted NetworkX call counts them.  NetworkX may hand the backend a
        cached conversion that carries weights instead (it reuses one with
        more edge attributes than a call needs): the counts are then read
        again from the NetworkX graph, once."""
        if self.weight is None:
            return self.graph
        if self._counted is None:
            G = self._source() if self._source is not None else None
            if G is None:
                raise RuntimeError("the NetworkX graph this conversion came from is gone")
            self._counted = lg.Graph.from_networkx(G, weight=None)
        return self._counted

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return self.graph.num_vertices

    def __iter__(self):
        return iter(self.graph.nodes)

    def __contains__(self, node):
        try:
            return node in self.graph._node_index
        except TypeError:
            return False

    def number_of_nodes(self):
        return self.graph.num_vertices

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        return f"<LibgraphGraph: {len(self)} nodes, {kind}, {self.graph!r}>"


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
    g = lg.Graph.from_networkx(G, weight=weight, default_weight=float(default))
    return LibgraphGraph(g, G.is_directed(), G.is_multigraph(), weight,
                         G.graph if preserve_graph_attrs else None, G)


def convert_to_nx(obj, *, name=None):
    """A LibgraphGraph back as a NetworkX graph (its arcs and weights); any
    other result unchanged."""
    if not isinstance(obj, LibgraphGraph):
        return obj
    G = nx.DiGraph() if obj.is_directed() else nx.Graph()
    G.graph.update(obj.graph_attrs)
    nodes = obj.graph.nodes
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


# ---- where a call runs ------------------------------------------------------------


def _device(device):
    """The device of a call: its own, else the backend's configuration."""
    if device is not None:
        return device
    config = getattr(nx.config.backends, BACKEND, None)
    return getattr(config, "device", "auto") if config is not None else "auto"


def can_run(name, args, kwargs):
    """Every function this backend lists runs with any of NetworkX's
    arguments; True, or a string saying why not."""
    return name in _FUNCTIONS


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


def _node_vector(G, values, name):
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
    personalization = _node_vector(G, personalization, "personalization")
    if personalization is not None and not any(personalization.values()):
        raise ZeroDivisionError("float division by zero")  # NetworkX's own error
    try:
        x = lg.pagerank(g, alpha, personalization, max_iter, tol,
                        _node_vector(G, nstart, "nstart"),
                        # a multigraph's arcs weigh their parallel edges even unweighted
                        weight=weight is not None or G.is_multigraph(),
                        dangling=_node_vector(G, dangling, "dangling"), device=_device(device))
    except lg.NotConverged:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(g.nodes, x.tolist()))


# ---- connected components -----------------------------------------------------------


def _component_lists(G, device):
    """The components as lists of nodes, in NetworkX's order (by each one's
    first node in node order: libgraph labels a component by its smallest
    vertex id)."""
    labels = lg.connected_components(G.graph, device=_device(device)).tolist()
    groups = {}
    for node, label in zip(G.graph.nodes, labels):
        group = groups.get(label)
        if group is None:
            groups[label] = [node]
        else:
            group.append(node)
    return groups.values()


def connected_components(G, *, device=None):
    for nodes in _component_lists(G, device):
        yield set(nodes)


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
    label = labels[G.graph.vertex(n)]
    return {node for node, x in zip(G.graph.nodes, labels.tolist()) if x == label}


def weakly_connected_components(G, *, device=None):
    for nodes in _component_lists(G, device):
        yield set(nodes)


number_weakly_connected_components = number_connected_components


def is_weakly_connected(G, *, device=None):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(
            "Connectivity is undefined for the null graph.")
    return number_connected_components(G, device=device) == 1


_FUNCTIONS = {
    "pagerank", "connected_components", "number_connected_components", "is_connected",
    "node_connected_component", "weakly_connected_components",
    "number_weakly_connected_components", "is_weakly_connected",
}
