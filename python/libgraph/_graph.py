"""libgraph.Graph: an immutable graph in CSR form."""

import numbers
import operator

from . import _libgraph
from ._arrays import wrap
from ._checks import flag, integer, path as _path, real
from ._device import context
from ._gpu_arrays import to_host
from ._inputs import (
    _FORMATS,
    _checked_names,
    _column,
    _decoded_names,
    _directedness,
    _duplicates,
    _weight_type,
    _encoded_names,
    _factorized,
    _first_missing,
    _first_unhashable,
    _float_ids,
    _format,
    _generate_args,
    _listed,
    _named,
    _names_lock,
    _num_vertices,
    _on_the_gpu,
    _per_vertex,
    _readable,
    _saved_format,
    _view,
)


def generate_edges(kind="kron", scale=10, edge_factor=16, seed=1, *, device=None):
    """The raw edges of a generated graph, (src, dst) int32 arrays of
    edge_factor * 2**scale entries, self-loops and duplicates included (what
    Graph.generate builds from).  Deterministic for a seed."""
    src, dst = _libgraph.generate_edges(*_generate_args(kind, scale, edge_factor, seed),
                                        context=context(device))
    return wrap(src), wrap(dst)


def _restore(directed, offsets, indices, weights, nodes):
    """A pickled Graph back (Graph.__reduce_ex__): its CSR arrays checked as
    from_csr checks any and its node list as the names setter checks any (a
    pickle from elsewhere may be damaged): ValueError or TypeError."""
    self = Graph._from_adjacency(None, None, offsets, indices, weights, directed)
    self.names = nodes
    return self



class Graph:
    """An immutable graph in compressed sparse row form.

    Build one with Graph.from_edges, from_csr, from_scipy, from_networkx,
    load or generate; it may be used from many threads at once.  Vertices
    are 0 .. num_vertices - 1; a graph made from NetworkX keeps the node
    keys in ``nodes`` (vertex i is ``nodes[i]``).
    """

    __slots__ = ("_g", "_names", "_node_index", "__weakref__")

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "make a Graph with Graph.from_edges, from_csr, from_scipy, from_networkx, load "
            "or generate"
        )

    @classmethod
    def _wrap(cls, g, nodes=None):
        self = object.__new__(cls)
        self._g = g
        self._names = None if nodes is None else list(nodes)
        self._node_index = None
        return self

    # ---- node names -------------------------------------------------------------------

    @property
    def names(self):
        """The node names (keys) in vertex order: vertex i is names[i]; None
        when the vertices are plain ids.  A graph made from NetworkX or from
        named edges (from_edges / from_pandas with names) has them; setting a
        list of num_vertices distinct hashables, none of them missing (None,
        NaN), names a graph."""
        return self._names

    @names.setter
    def names(self, names):
        index = None
        if names is not None:
            names, index = _checked_names(names, self.num_vertices)
        self._names, self._node_index = names, index

    # the name NetworkX users know (a graph from_networkx has g.nodes)
    nodes = names

    def _index(self):
        """{name: vertex id}, made on first use; None for an unnamed graph."""
        if self._node_index is None and self._names is not None:
            self._node_index = dict(zip(self._names, range(len(self._names))))
        return self._node_index

    def index_of(self, names):
        """The vertex ids of node names: one name -> an int, a sequence or
        array of them (a list, numpy array, pandas Series) -> an int64 array.
        KeyError for a name the graph lacks.  An unnamed graph's names are its
        vertex ids (integers: TypeError for others, floats included)."""
        index = self._index()
        names = _readable(names, "names")
        one = isinstance(names, (str, bytes, tuple)) or not hasattr(names, "__iter__")
        if one and index is not None:
            return self.vertex(names)
        import numpy as np

        keys = [names] if one else _listed(names, "names")
        if index is None:
            try:  # ids, not floats that numpy would truncate
                ids = np.fromiter(map(operator.index, keys), dtype=np.int64, count=len(keys))
            except (TypeError, OverflowError):
                raise TypeError(f"names: the vertex ids of an unnamed graph are integers in "
                                f"[0, {self.num_vertices})") from None
            bad = (ids < 0) | (ids >= self.num_vertices)
            if bad.any():
                raise KeyError(f"vertex {keys[int(np.argmax(bad))]!r} is not in the graph")
            return int(ids[0]) if one else ids
        try:
            return np.fromiter((index[k] for k in keys), dtype=np.int64, count=len(keys))
        except KeyError as e:
            raise KeyError(f"node {e.args[0]!r} is not in the graph") from None
        except TypeError:
            at = _first_unhashable(keys)
            raise TypeError(f"names[{at}]: a name must be hashable, not "
                            f"{type(keys[at]).__name__}") from None

    def to_pandas(self, values, name=None):
        """A per-vertex result (an array of num_vertices: scores, distances,
        labels) as a pandas Series indexed by node name (by vertex id for an
        unnamed graph)."""
        import pandas as pd

        values = _per_vertex(values, self.num_vertices)
        if len(values) != self.num_vertices:
            raise ValueError(f"values: {len(values)} entries for {self.num_vertices} vertices")
        index = None
        if self._names is not None:
            try:
                index = pd.Index(self._names)
            except NotImplementedError:  # names of a type pandas keeps no index of (float16)
                index = pd.Index(self._names, dtype=object)
        return pd.Series(values, index=index, name=name)

    def to_dict(self, values):
        """A per-vertex result as a dict {node name (vertex id when unnamed): value}."""
        values = _listed(_per_vertex(values, self.num_vertices), "values")
        keys = self._names if self._names is not None else range(self.num_vertices)
        return dict(zip(keys, values))

    # ---- constructors -------------------------------------------------------------

    @classmethod
    def from_edges(cls, src, dst, weights=None, num_vertices=None, directed=False, *,
                   names=None, symmetrize=False, drop_self_loops=False, duplicates="keep",
                   weight_dtype=None, device=None):
        """A graph of the edges src[i] -> dst[i] (with weights[i]).

        src, dst: vertex ids (numpy arrays, pandas Series, array.array,
        memoryview, sequences; int32 arrays are used without a copy), or node
        names: any hashables (str, tuples, ints beyond int32), which number
        the vertices in order of first appearance, edge by edge, source
        before target (NetworkX's order), and become g.names.  names: None
        reads integer arrays (and lists whose first entry is a number) as
        ids and anything else as names; True: names whatever they are;
        False: ids.  Names are factorized by pandas (needed for them).
        weights: None or an array of finite weights (negative ones too: the
        algorithms that need weights >= 0 refuse them), kept as their type:
        float32 for a float32 array (used in place), float64 for anything
        else (float64 arrays, Python numbers, integers), unless weight_dtype
        ("float32" or "float64") says which.  float64 weights make weighted
        distances equal to NetworkX's for any weights; float32 takes half
        the memory.  num_vertices: None means one more than the largest id (with
        names: the number of names; it cannot be given).  directed=False
        stores each edge in both directions.  symmetrize (directed graphs)
        adds the reverse arcs; duplicates: "keep", "sum", "min", "max",
        "first" or "last" merges repeated edges.  Bad ids or weights raise
        ValueError.
        """
        names = None if names is None else flag(names, "names")
        directed = flag(directed, "directed")
        if not names:
            g = _on_the_gpu(src, dst, weights, num_vertices, directed, symmetrize,
                            drop_self_loops, duplicates, device)
            if g is not None:
                return cls._wrap(g)
        src, dst, weights = (to_host(src, "src"), to_host(dst, "dst"),
                             to_host(weights, "weights"))
        node_names = None
        if names or (names is None and (_named(src) or _named(dst))):
            if num_vertices is not None:
                raise ValueError("num_vertices: not with node names (their number is the "
                                 "number of vertices)")
            src, dst, node_names = _factorized(src, dst)
            num_vertices = len(node_names)
        else:
            _float_ids(src, "src")
            _float_ids(dst, "dst")
        g = _libgraph.from_edges(
            _num_vertices(num_vertices), src, dst, weights, 1 if directed else 2,
            flag(symmetrize, "symmetrize"), flag(drop_self_loops, "drop_self_loops"),
            duplicates=_duplicates(duplicates), context=context(device),
            weight_type=_weight_type(weights, weight_dtype))
        return cls._wrap(g, node_names)

    @classmethod
    def from_pandas(cls, df, source="source", target="target", weight=None, *, directed=False,
                    names=None, symmetrize=False, drop_self_loops=False, duplicates="keep",
                    weight_dtype=None, device=None):
        """A graph of a DataFrame's edge list: columns source and target (ids
        or node names, as from_edges reads them: a column of strings is
        names), weight None or the weight column.  The rest as from_edges;
        undirected unless directed=True, as networkx.from_pandas_edgelist."""
        if not hasattr(df, "columns") or not hasattr(df, "__getitem__"):
            raise TypeError(f"df: expected a pandas DataFrame, not {type(df).__name__}")
        names = None if names is None else flag(names, "names")
        s = _column(df, source, "source", names, "vertex ids (integers) or node names")
        t = _column(df, target, "target", names, "vertex ids (integers) or node names")
        w = None if weight is None else _column(df, weight, "weight", False, "weights (numbers)")
        return cls.from_edges(s, t, w, directed=directed, names=names, symmetrize=symmetrize,
                              drop_self_loops=drop_self_loops, duplicates=duplicates,
                              weight_dtype=weight_dtype, device=device)

    @classmethod
    def from_csr(cls, offsets, indices, weights=None, directed=False, *, symmetrize=False,
                 drop_self_loops=False, duplicates="keep", weight_dtype=None, device=None):
        """A graph from CSR arrays: offsets (num_vertices + 1 entries, int64
        used in place), indices (int32), optional weights (their type kept,
        as from_edges says).  Undirected unless directed=True: an undirected
        graph's CSR must be symmetric (else ValueError) unless
        symmetrize=True adds the reverse arcs."""
        weights = to_host(weights, "weights")
        g = _libgraph.from_csr(
            to_host(offsets, "offsets"), to_host(indices, "indices"), weights,
            1 if flag(directed, "directed") else 2, flag(symmetrize, "symmetrize"),
            flag(drop_self_loops, "drop_self_loops"), duplicates=_duplicates(duplicates),
            context=context(device), weight_type=_weight_type(weights, weight_dtype))
        return cls._wrap(g)

    @classmethod
    def from_scipy(cls, matrix, directed=False, *, weighted=True, symmetrize=False,
                   drop_self_loops=False, duplicates="sum", weight_dtype=None, device=None):
        """A graph from a square scipy.sparse matrix or array: entry (i, j) is
        the edge i -> j with weight A[i, j] (weighted=False drops the values).
        Explicitly stored zeros are edges of weight 0; repeated entries of a
        COO matrix follow `duplicates` (default "sum", as SciPy) when
        directed, and add up when undirected (the matrix goes through
        tocsr()).  Undirected unless directed=True: an undirected graph needs
        a symmetric matrix (else ValueError) or symmetrize=True.  The values'
        type is kept (float32 stays float32; other types become float64)
        unless weight_dtype says."""
        shape = getattr(matrix, "shape", None)
        if shape is None or not hasattr(matrix, "tocsr"):
            raise TypeError(f"matrix: expected a scipy.sparse matrix, not {type(matrix).__name__}")
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f"matrix: must be square, not of shape {shape}")
        directed, weighted = flag(directed, "directed"), flag(weighted, "weighted")
        if matrix.format == "coo" and directed:
            # COO may repeat an entry: from_edges applies the policy (tocsr
            # would sum them whatever it is).  Undirected, (u, v) and (v, u)
            # are one edge stored twice: the CSR path below checks symmetry.
            coo = matrix
            return cls.from_edges(coo.row, coo.col, coo.data if weighted else None,
                                  num_vertices=shape[0], directed=directed,
                                  symmetrize=symmetrize, drop_self_loops=drop_self_loops,
                                  duplicates=duplicates, weight_dtype=weight_dtype,
                                  device=device)
        csr = matrix.tocsr()
        return cls.from_csr(csr.indptr, csr.indices, csr.data if weighted else None,
                            directed=directed, symmetrize=symmetrize,
                            drop_self_loops=drop_self_loops, duplicates=duplicates,
                            weight_dtype=weight_dtype, device=device)

    @classmethod
    def from_networkx(cls, G, weight="weight", *, default_weight=1.0, weight_dtype=None,
                      device=None):
        """A graph from a NetworkX graph; vertex i is node ``nodes[i]`` (the
        order of G.nodes).  weight: the edge attribute holding weights (edges
        without it weigh default_weight), or None for an unweighted graph.
        default_weight must be a finite number >= 0 (ValueError), used or
        not.  A multigraph's parallel edges become one arc whose weight is their
        sum (their count when weight is None), as NetworkX's matrix
        conversions and its PageRank count them.  Weights are float64, as
        NetworkX holds them (weight_dtype="float32" halves their memory and
        refuses a weight float32 cannot hold).  A NaN node (NetworkX takes
        one) is a ValueError, as a missing value names no node.  The
        adjacency dicts are read in C (networkx.c)."""
        try:
            directed = G.is_directed()
            multigraph = G.is_multigraph()
            adj = G._adj
            nodes = list(G)
        except (AttributeError, TypeError):
            raise TypeError(f"G: expected a NetworkX graph, not {type(G).__name__}") from None
        default_weight = real(default_weight, "default_weight")
        if not 0 <= default_weight < float("inf"):
            raise ValueError(f"default_weight: must be a finite number >= 0, not "
                             f"{default_weight}")
        at = _first_missing(nodes)
        if at >= 0:  # NetworkX takes NaN as a node; a Graph's names hold none (names setter)
            raise ValueError(f"G: node {nodes[at]!r}: a missing value (None or NaN) cannot "
                             f"name a node")
        wide = _weight_type(True, weight_dtype or "float64") == 2
        index, offsets, indices, weights = _libgraph.adjacency_csr(
            nodes, adj, weight, default_weight, multigraph, count_parallel=multigraph, wide=wide)
        return cls._from_adjacency(nodes, index, offsets, indices, weights, directed, device)

    @classmethod
    def _from_adjacency(cls, nodes, index, offsets, indices, weights, directed, device=None):
        """The graph of CSR arrays given as bytes (int64 offsets, int32
        indices, float32 or float64 weights -- told apart by their length --
        or None) and their node keys and index (None:
        made on first use): _libgraph.adjacency_csr's arrays (from_networkx,
        and the NetworkX backend, which keeps them too), or an unpickled graph's.
        An undirected graph's CSR holds both arcs of an edge (NetworkX's
        adjacency does), checked as from_csr checks any."""
        wide = weights is not None and len(memoryview(weights).cast("B")) == 2 * len(
            memoryview(indices).cast("B"))
        weights = _view(weights, "d" if wide else "f")
        g = _libgraph.from_csr(_view(offsets, "q"), _view(indices, "i"), weights,
                               1 if directed else 2, False, False, duplicates=0,
                               context=context(device), weight_type=2 if wide else 1)
        self = cls._wrap(g, nodes)
        self._node_index = index
        return self

    @classmethod
    def load(cls, path, format=None, directed=None, *, symmetrize=False, drop_self_loops=False,
             duplicates="keep", names=True, weight_dtype=None, device=None):
        """Reads a graph file: .mtx (Matrix Market), .el / .wel (edge lists,
        0-based), .lgb (libgraph's binary CSR); format=None goes by the
        extension.  directed=None takes what the file records (.lgb; a .mtx
        header's "symmetric" or "general"; the header line libgraph writes
        at the top of .el/.wel), and a file that records nothing (an edge
        list from elsewhere) is undirected; True or False overrides the
        record.  A missing or malformed file raises FileFormatError (an
        OSError) naming the line.  A .lgb's vertex names become the node
        keys (two vertices with one name: FileFormatError naming both);
        names=False leaves them out.  Weights: a text file's are read as
        float32, a .lgb's as it holds them; weight_dtype="float64" reads a
        text file's decimals as Python's float() reads them (weighted
        distances then equal NetworkX's), and converts a .lgb's."""
        g = _libgraph.read(_path(path), _format(format), _directedness(directed),
                           flag(symmetrize, "symmetrize"), flag(drop_self_loops, "drop_self_loops"),
                           duplicates=_duplicates(duplicates), context=context(device),
                           skip_names=not flag(names, "names"),
                           weight_type=0 if weight_dtype is None else _weight_type(True, weight_dtype))
        names = _decoded_names(g.names())
        if names is None:
            return cls._wrap(g)
        g.set_names(0, b"", b"", b"")  # the Graph keeps them (as Python objects) from here
        self = cls._wrap(g)
        self.names = names  # checked as any names (distinct)
        return self

    @classmethod
    def generate(cls, kind="kron", scale=10, edge_factor=16, seed=1, *, device=None):
        """A generated graph on 2**scale vertices with edge_factor * 2**scale
        raw edges, as the GAP benchmark makes them (undirected, self-loops
        dropped, duplicates merged): kind "kron" (Graph500 Kronecker) or
        "urand" (uniform random).  Deterministic for a seed."""
        g = _libgraph.generate(*_generate_args(kind, scale, edge_factor, seed),
                               context=context(device))
        return cls._wrap(g)

    def save(self, path, format=None, *, names=True, plain=False, device=None):
        """Writes the graph (format=None: by the file's extension); written to
        a temporary name and renamed, so a failure leaves no partial file.
        Every format keeps the directedness, vertex count and arcs (.el drops
        the weights).  An edge list (.el, .wel) starts with a header line
        ("# libgraph edge list: directed, 6 vertices, unweighted") only where
        reading it without the line would give another graph: a directed
        graph, vertices past the largest id with no edges, an unweighted
        graph as .wel; plain=True leaves the line out anyway, for readers of
        bare "u v[ w]" lines (pandas.read_csv(sep=" ", header=None),
        numpy.loadtxt, GAPBS, igraph), and the file then reads back without
        what the line records (load(..., directed=True) says directed).
        Node names go into .lgb files when they are all str or all int
        (others: ValueError; pickles keep any); the text formats hold vertex
        ids, so a named graph needs names=False there (the names are then
        not written: ValueError otherwise)."""
        path = _path(path)
        plain = flag(plain, "plain")
        if self._names is None or not flag(names, "names"):
            _libgraph.write(self._g, path, _format(format), context=context(device), plain=plain)
            return
        if _saved_format(path, format) != _FORMATS["lgb"]:
            raise ValueError("names: only the binary format (.lgb) keeps node names; save to "
                             ".lgb, or pass names=False to write vertex ids without them")
        encoded = _encoded_names(self._names)
        with _names_lock:
            self._g.set_names(*encoded)
            try:
                _libgraph.write(self._g, path, _format(format), context=context(device),
                                plain=plain)
            finally:
                self._g.set_names(0, b"", b"", b"")

    # ---- properties ------------------------------------------------------------------

    @property
    def num_vertices(self):
        """The number of vertices."""
        return self._g.num_vertices

    @property
    def num_edges(self):
        """Stored arcs: an undirected edge u-v (u != v) counts twice, a self-loop once."""
        return self._g.num_edges

    @property
    def directed(self):
        return self._g.directed

    @property
    def weighted(self):
        return self._g.weighted

    @property
    def weight_dtype(self):
        """The weights' type, "float32" or "float64" (None when unweighted)."""
        return self._g.weight_dtype

    @property
    def negative_weights(self):
        """Whether some weight is < 0 (sssp then takes Bellman-Ford; pagerank
        refuses the weights)."""
        return self._g.negative_weights

    def out_degrees(self):
        """Out-arcs of every vertex (int64)."""
        return wrap(self._g.out_degrees())

    def in_degrees(self):
        """In-arcs of every vertex (int64)."""
        return wrap(self._g.in_degrees())

    def degrees(self):
        """Arcs of every vertex: out-degrees (for an undirected graph, the
        degree, a self-loop counting once)."""
        return self.out_degrees()

    def csr(self):
        """(offsets int64, indices int32, weights of weight_dtype or None):
        read-only views of the graph's out-edge arrays, no copy; they keep
        the graph alive."""
        return tuple(wrap(a) for a in self._g.csr())

    def csc(self):
        """As csr(), for the in-edges (built on first use)."""
        return tuple(wrap(a) for a in self._g.csc())

    def to_scipy(self):
        """The adjacency matrix as a scipy.sparse.csr_array (a copy; the
        weights, or ones)."""
        import numpy as np
        import scipy.sparse as sp

        off, idx, w = self.csr()
        data = np.ones(len(idx), dtype=np.float32) if w is None else np.array(w)
        n = self.num_vertices
        return sp.csr_array((data, np.array(idx), np.array(off)), shape=(n, n))

    def vertex(self, node):
        """The vertex id of a node key (graphs from NetworkX), else node itself."""
        index = self._index()
        if index is None:
            return node
        try:
            return index[node]
        except (KeyError, TypeError):
            raise KeyError(f"node {node!r} is not in the graph") from None

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        w = ", weighted" if self.weighted else ""
        named = ", named nodes" if self._names is not None else ""
        return (f"<libgraph.Graph: {self.num_vertices} vertices, {self.num_edges} arcs, "
                f"{kind}{w}{named}>")

    # ---- pickling, copying, size ------------------------------------------------------

    def __reduce_ex__(self, protocol):
        """Pickles as the binary format holds a graph (directedness and the
        CSR arrays: offsets, indices, weights) plus the node keys.  With
        protocol 5 the arrays go to the pickle straight from the graph's
        memory (pickle.PickleBuffer), or out of band with buffer_callback."""
        arrays = self._g.csr()
        if protocol >= 5:
            import pickle

            arrays = tuple(None if a is None else pickle.PickleBuffer(a) for a in arrays)
        else:
            arrays = tuple(None if a is None else bytes(memoryview(a)) for a in arrays)
        return (_restore, (self.directed, *arrays, self._names))

    def __copy__(self):
        """A Graph sharing this one's arrays (a Graph cannot change); the node
        list is shared too, as copy.copy shares attributes."""
        other = Graph._wrap(self._g)
        other._names, other._node_index = self._names, self._node_index
        return other

    def __sizeof__(self):
        """Bytes of the object, the graph's arrays in host memory (its CSR
        and, once built, a directed graph's in-edges) and the name list; a
        copy on a GPU is not counted."""
        size = object.__sizeof__(self) + self._g.host_bytes
        return size + (self._names.__sizeof__() if self._names is not None else 0)
