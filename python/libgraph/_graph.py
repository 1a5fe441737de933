"""libgraph.Graph: an immutable graph in CSR form."""

import numbers
import operator
import os
import sys
import threading

from . import _libgraph
from ._arrays import wrap, have_numpy
from ._checks import INT_MAX, INT_MIN, flag, integer, path as _path, real
from ._device import context
from ._gpu_arrays import device_array, to_host

_DUPLICATES = {"keep": 0, "sum": 1, "min": 2, "max": 3, "first": 4, "last": 5}
_FORMATS = {None: 0, "auto": 0, "mtx": 1, "el": 2, "wel": 3, "lgb": 4, "binary": 4}
_GENERATORS = {"kron": 0, "kronecker": 0, "urand": 1, "uniform": 1}


def _directedness(directed):
    """0 (the format's default), 1 directed, 2 undirected."""
    if directed is None:
        return 0
    return 1 if flag(directed, "directed") else 2


def _duplicates(duplicates):
    try:
        return _DUPLICATES[duplicates]
    except (KeyError, TypeError):
        raise ValueError(
            f"duplicates: must be one of {', '.join(map(repr, _DUPLICATES))}, not {duplicates!r}"
        ) from None


def _format(fmt):
    try:
        return _FORMATS[fmt.lstrip(".").lower() if isinstance(fmt, str) else fmt]
    except (KeyError, TypeError):
        raise ValueError(
            f"format: must be None, 'mtx', 'el', 'wel' or 'lgb', not {fmt!r}"
        ) from None


# save() lends a graph's names to libgraph for the length of a write: one
# save of a named graph at a time, so that no write reads names another
# thread is replacing (a Graph's C handle may be shared by copies).
_names_lock = threading.Lock()


def _saved_format(path, fmt):
    """The format code a save of path takes (0 when libgraph cannot tell)."""
    code = _format(fmt)
    if code == 0:
        code = _FORMATS.get(os.path.splitext(_path(path))[1].lstrip(".").lower(), 0)
    return code


def _encoded_names(names):
    """Node names as lg_graph_set_names takes them: (1, int64 bytes, b"",
    b"") for ints, (2, b"", int64 offset bytes, UTF-8 text) for strings; a
    ValueError for names of other types (tuples, mixed), which only pickles
    keep."""
    import numpy as np

    if all(isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
           for x in names):
        try:
            return 1, np.array(names, dtype=np.int64).tobytes(), b"", b""
        except OverflowError:
            raise ValueError("names: an int name beyond int64 cannot go into a .lgb file") from None
    if all(isinstance(x, str) for x in names):
        try:
            encoded = [x.encode("utf-8") for x in names]
        except UnicodeEncodeError as e:
            raise ValueError(f"names: a name that is not valid Unicode: {e}") from None
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)),
                  out=offsets[1:])
        return 2, b"", offsets.tobytes(), b"".join(encoded)
    types = sorted({type(x).__name__ for x in names})
    raise ValueError(f"names: a .lgb file keeps names that are all str or all int, not "
                     f"{' and '.join(types)}; pickle the graph to keep any names, or pass "
                     f"names=False")


def _decoded_names(stored):
    """The names of _libgraph.Graph.names(): a list, or None."""
    if stored is None:
        return None
    import numpy as np

    if stored[0] == 1:
        return np.frombuffer(stored[1], dtype=np.int64).tolist()
    offsets, text = np.frombuffer(stored[1], dtype=np.int64).tolist(), stored[2]
    return [text[a:b].decode("utf-8") for a, b in zip(offsets, offsets[1:])]


def _num_vertices(n):
    if n is None:
        return -1
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"num_vertices: expected an integer or None, not {type(n).__name__}") from None
    if not 0 <= n <= _libgraph.MAX_VERTICES:
        raise ValueError(f"num_vertices: must be in [0, {_libgraph.MAX_VERTICES}], not {n}")
    return n


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


def _readable(x, name):
    """x, or for a memoryview the numpy array viewing it: Python unpacks a
    memoryview (tolist(), iteration) only in the struct module's native
    formats (NotImplementedError for '>i4', complex, float16, objects,
    bytes), numpy reads them all, so a memoryview gives what its numpy
    array gives.  Without numpy, a memoryview's values as a list, and a
    TypeError for a format Python cannot unpack."""
    if not isinstance(x, memoryview):
        return x
    if have_numpy():
        import numpy as np

        try:
            return np.asarray(x)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: a memoryview of format {x.format!r}, which numpy "
                            f"cannot read") from None
    try:
        return x.tolist()
    except NotImplementedError:
        raise TypeError(f"{name}: a memoryview of format {x.format!r} needs numpy to be "
                        f"read (pip install numpy)") from None


def _first_missing(keys):
    """The position of the first missing value among keys (a list): None,
    NaN, NaT or pandas.NA, what pandas.isna finds and pandas.factorize gives
    no code (so from_edges refuses it); -1 when there is none.  pandas.isna
    when pandas is loaded (pandas.NA exists only then); else None or a value
    unequal to itself (NaN, NaT), one by one."""
    pd = sys.modules.get("pandas")
    if pd is not None:
        import numpy as np

        missing = pd.isna(np.fromiter(keys, dtype=object, count=len(keys)))
        return int(np.argmax(missing)) if missing.any() else -1
    for i, x in enumerate(keys):
        try:
            if x is None or bool(x != x):
                return i
        except Exception:  # a comparison that is no bool: no NaN
            pass
    return -1


def _listed(values, name):
    """values (a sequence, array or iterable) as a list; TypeError naming
    the argument for a scalar or a str (which would be its characters)."""
    values = _readable(values, name)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name}: expected a sequence or array, not {type(values).__name__}")
    if getattr(values, "ndim", 1) != 1:
        raise ValueError(f"{name}: expected one dimension, not {values.ndim}")
    return values.tolist() if hasattr(values, "tolist") else list(values)


def _first_unhashable(keys):
    """The position of the first key that has no hash."""
    for i, k in enumerate(keys):
        try:
            hash(k)
        except TypeError:
            return i
    return -1


def _checked_names(names, num_vertices):
    """(names as a list, {name: vertex id}) for names that may name the
    vertices of a graph: num_vertices of them, no missing value (None, NaN:
    ValueError, as from_edges), hashable (TypeError), distinct (ValueError).
    The names setter and unpickling check with it."""
    names = _listed(names, "names")
    if len(names) != num_vertices:
        raise ValueError(f"names: {len(names)} names for {num_vertices} vertices")
    at = _first_missing(names)
    if at >= 0:
        raise ValueError(f"names[{at}]: a missing value (None or NaN) cannot name a node")
    try:
        index = dict(zip(names, range(len(names))))
    except TypeError:
        raise TypeError(f"names[{_first_unhashable(names)}]: a name must be hashable") from None
    if len(index) != len(names):
        seen = {}
        for v, name in enumerate(names):
            if name in seen:
                raise ValueError(f"names: vertices {seen[name]} and {v} have the same name "
                                 f"{name!r} (names are node keys: one a vertex)")
            seen[name] = v
    return names, index


def _per_vertex(values, n):
    """A per-vertex result argument (to_pandas, to_dict): a sequence or
    array of n values, else TypeError or ValueError naming it."""
    values = _readable(values, "values")
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"values: expected an array of {n} values, not {type(values).__name__}")
    if getattr(values, "ndim", 1) != 1:
        raise ValueError(f"values: expected one dimension, not {values.ndim}")
    if len(values) != n:
        raise ValueError(f"values: {len(values)} entries for {n} vertices")
    return values


def _view(buf, code):
    """buf's bytes as a memoryview of format code (None stays None)."""
    return None if buf is None else memoryview(buf).cast("B").cast(code)


def _named(x):
    """Whether from_edges reads x as node names rather than vertex ids: an
    array of strings, objects, dates or durations, or a sequence whose first
    entry is not a number (a list of ints stays ids, and floats fail as ids
    do)."""
    if isinstance(x, memoryview) and have_numpy():
        try:
            x = _readable(x, "")  # a memoryview is read as its numpy array
        except TypeError:
            return False  # ids, then: the extension names the format it cannot read
    dtype = getattr(x, "dtype", None)
    if dtype is not None:  # strings, objects (pandas' too), dates; not complex or records
        return getattr(dtype, "kind", "O") in "OUSMm"
    if isinstance(x, (str, bytes, bytearray, memoryview, dict, set, frozenset)) or hasattr(
            x, "buffer_info"):
        return False  # buffers are numbers; a string or an unordered container is no edge list
    try:
        first = next(iter(x))
    except (TypeError, StopIteration):
        return False
    return not isinstance(first, numbers.Number)


def _keys(x, name):
    """x as a one-dimensional numpy array of its keys (object dtype for
    lists, so tuples stay keys), without a Python loop over it."""
    import numpy as np

    x = _readable(x, name)
    if hasattr(x, "dtype") or hasattr(x, "__array__"):
        a = np.asarray(x)
    else:
        x = x if hasattr(x, "__len__") else list(x)
        a = np.fromiter(x, dtype=object, count=len(x))
    if a.ndim != 1:
        raise ValueError(f"{name}: expected one dimension, not {a.ndim}")
    return a


def _factorized(src, dst):
    """(source ids, target ids, names) of named edges: pandas.factorize over
    the keys interleaved edge by edge, so that names come in order of first
    appearance, source before target."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("node names need pandas (pip install pandas)") from None
    import numpy as np

    s, d = _keys(src, "src"), _keys(dst, "dst")
    if len(s) != len(d):
        raise ValueError(f"src and dst differ in length ({len(s)} and {len(d)})")
    dtype = s.dtype
    if s.dtype != d.dtype:  # keys of two types: objects, dates as pandas' (numpy's may be ints)
        dtype = object
        s, d = (pd.Index(x).astype(object).to_numpy() if x.dtype.kind in "mM" else x
                for x in (s, d))
    both = np.empty(2 * len(s), dtype=dtype)
    both[0::2], both[1::2] = s, d
    try:
        codes, uniques = pd.factorize(both)
    except TypeError:  # an unhashable key
        at = _first_unhashable(both)
        raise TypeError(f"{('src', 'dst')[at % 2]}[{at // 2}]: a node name must be hashable, "
                        f"not {type(both[at]).__name__}") from None
    if len(codes) and codes.min() < 0:
        at = int(np.argmax(codes < 0))
        raise ValueError(f"{('src', 'dst')[at % 2]}[{at // 2}]: a missing value (None or NaN) "
                         f"cannot name a node")
    if len(uniques) > _libgraph.MAX_VERTICES:
        raise ValueError(f"{len(uniques)} node names, more than libgraph's "
                         f"{_libgraph.MAX_VERTICES} vertices")
    codes = codes.astype(np.int32)
    if getattr(uniques.dtype, "kind", "O") in "mM":  # pandas' Timestamps, as NetworkX has them
        return codes[0::2], codes[1::2], pd.Index(uniques).tolist()
    return codes[0::2], codes[1::2], np.asarray(uniques, dtype=object).tolist()


def _on_the_gpu(src, dst, weights, num_vertices, directed, symmetrize, drop_self_loops,
                duplicates, device):
    """The graph built on the GPU (lg_graph_from_device_edges) when src, dst
    (and weights) are int32 (float32) GPU arrays of one device and the call's
    context runs on it; else None (the arrays go to the host)."""
    ds, dd = device_array(src, "src"), device_array(dst, "dst")
    dw = device_array(weights, "weights") if weights is not None else None
    if ds is None or dd is None or (weights is not None and dw is None):
        return None
    same = ds.device == dd.device and (dw is None or dw.device == ds.device)
    if (not same or ds.typestr[1:] != "i4" or dd.typestr[1:] != "i4" or
            (dw is not None and dw.typestr[1:] != "f4")):
        return None
    if ds.length != dd.length or (dw is not None and dw.length != ds.length):
        raise ValueError(f"src, dst and weights: must have the same length, not {ds.length}, "
                         f"{dd.length}" + (f" and {dw.length}" if dw is not None else ""))
    ctx = context(device)
    if ctx is None or ctx.backend != "gpu" or not ctx.device.startswith(f"gpu {ds.device}:"):
        return None
    return _libgraph.from_device_edges(
        _num_vertices(num_vertices), ds.ptr, dd.ptr, dw.ptr if dw is not None else 0, ds.length,
        1 if directed else 2, flag(symmetrize, "symmetrize"),
        flag(drop_self_loops, "drop_self_loops"), duplicates=_duplicates(duplicates), context=ctx)


def _first_nan(values):
    """Where values (a float or complex array or Series) first holds NaN:
    ("row", its index label) in a Series, ("element", its position) in an
    array; None without one."""
    import numpy as np

    nan = np.flatnonzero(np.isnan(np.asarray(values)))
    if not nan.size:
        return None
    index = getattr(values, "index", None)
    return ("row", index[nan[0]]) if index is not None else ("element", int(nan[0]))


# What a column of ids that holds NaN says: why it is float, and what to do.
_MISSING_ID = ("a missing value, which makes pandas store a column of integers as floats: "
               "drop the edges that miss one (.dropna()), then convert the ids "
               "(.astype(\"int64\"))")


def _float_ids(x, param):
    """TypeError for vertex ids given as a float (or complex) array or
    Series (an empty one is no edges): naming its first NaN, where a missing
    value made it float, and saying how to convert it."""
    dtype = getattr(x, "dtype", None)
    if getattr(dtype, "kind", "") not in ("f", "c") or getattr(x, "ndim", 0) != 1 or not len(x):
        return  # not a float array: the extension says what it is
    nan = _first_nan(x)
    if nan is not None:
        raise TypeError(f"{param}: must hold integers (vertex ids), not floats ({dtype}): "
                        f"{nan[0]} {nan[1]!r} is NaN, {_MISSING_ID}")
    raise TypeError(f"{param}: must hold integers (vertex ids), not floats ({dtype}): convert "
                    f"them (.astype(\"int64\")), or pass names=True to read the values as node "
                    f"names")


def _column(df, column, param, names, holds):
    """df[column], the from_pandas argument param, checked: KeyError (as
    pandas) when df has no such column; TypeError for a label that names no
    one column, and for a column that cannot be what it has to hold, naming
    it and its dtype (float or complex values as ids, unless names says
    names: a float column is a column of ids with a missing value, or of
    measures; anything but numbers as weights); ValueError for a missing
    value in it, naming the row."""
    try:
        values = df[column]
    except KeyError as e:
        raise KeyError(f"df has no column {e.args[0]!r}: {_columns_of(df)}; pass the "
                       f"{param} column's name as {param}=") from None
    except (TypeError, ValueError, IndexError) as e:  # an unhashable or odd label
        raise TypeError(f"{param}: {column!r} is not a column label of df ({e})") from None
    dtype = getattr(values, "dtype", None)
    if getattr(values, "ndim", 1) != 1 or dtype is None:
        raise TypeError(f"{param}: df[{column!r}] is not one column but a "
                        f"{type(values).__name__}")
    if not len(values):
        return values  # an empty DataFrame: an empty graph, whatever its dtypes
    kind = getattr(dtype, "kind", "O")
    numbers = holds.startswith("weights")
    if kind in "fc" and not names and not numbers:
        nan = _first_nan(values)
        if nan is not None:
            raise TypeError(f"{param}: df[{column!r}], a column of {dtype}, holds no {holds}: "
                            f"row {nan[1]!r} is NaN, a missing value, which makes pandas store "
                            f"a column of integers as floats: drop the rows that miss one "
                            f"(df.dropna(subset=[{column!r}])), then convert the column "
                            f"(.astype(\"int64\"))")
        raise TypeError(f"{param}: df[{column!r}], a column of {dtype}, holds no {holds}; "
                        f"convert it (.astype(\"int64\")), or pass names=True to read its values "
                        f"as node names")
    if numbers and kind not in "iufb":
        raise TypeError(f"{param}: df[{column!r}], a column of {dtype}, holds no {holds}")
    missing = values.isna() if hasattr(values, "isna") else None
    if missing is not None and missing.any():
        row = values.index[int(missing.to_numpy().argmax())]
        raise ValueError(f"{param}: df[{column!r}] at row {row!r}: a missing value (NaN, None, NA) "
                         + ("is no weight" if numbers else "cannot name a node"))
    return values


def _columns_of(df, most=20):
    """What columns df has, for a message (the first `most` of them)."""
    columns = [repr(c) for c in list(df.columns)[:most + 1]]
    if not columns:
        return "it has no columns"
    more = ", ..." if len(columns) > most else ""
    return f"its columns are {', '.join(columns[:most])}{more}"


def _generator(kind):
    try:
        return _GENERATORS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"kind: must be 'kron' or 'urand', not {kind!r}") from None


def _generate_args(kind, scale, edge_factor, seed):
    """generate's and generate_edges' arguments as the extension takes them
    (C ints; a seed, checked there, in [0, 2**64))."""
    return (_generator(kind), integer(scale, "scale", INT_MIN, INT_MAX),
            integer(edge_factor, "edge_factor", INT_MIN, INT_MAX), integer(seed, "seed"))


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
                   device=None):
        """A graph of the edges src[i] -> dst[i] (with weights[i]).

        src, dst: vertex ids (numpy arrays, pandas Series, array.array,
        memoryview, sequences; int32 arrays are used without a copy), or node
        names: any hashables (str, tuples, ints beyond int32), which number
        the vertices in order of first appearance, edge by edge, source
        before target (NetworkX's order), and become g.names.  names: None
        reads integer arrays (and lists whose first entry is a number) as
        ids and anything else as names; True: names whatever they are;
        False: ids.  Names are factorized by pandas (needed for them).
        weights: None or an array of finite weights >= 0 (float32 used in
        place).  num_vertices: None means one more than the largest id (with
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
            duplicates=_duplicates(duplicates), context=context(device))
        return cls._wrap(g, node_names)

    @classmethod
    def from_pandas(cls, df, source="source", target="target", weight=None, *, directed=False,
                    names=None, symmetrize=False, drop_self_loops=False, duplicates="keep",
                    device=None):
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
                              device=device)

    @classmethod
    def from_csr(cls, offsets, indices, weights=None, directed=False, *, symmetrize=False,
                 drop_self_loops=False, duplicates="keep", device=None):
        """A graph from CSR arrays: offsets (num_vertices + 1 entries, int64
        used in place), indices (int32), optional weights.  Undirected unless
        directed=True: an undirected graph's CSR must be symmetric (else
        ValueError) unless symmetrize=True adds the reverse arcs."""
        g = _libgraph.from_csr(
            to_host(offsets, "offsets"), to_host(indices, "indices"), to_host(weights, "weights"),
            1 if flag(directed, "directed") else 2, flag(symmetrize, "symmetrize"),
            flag(drop_self_loops, "drop_self_loops"), duplicates=_duplicates(duplicates),
            context=context(device))
        return cls._wrap(g)

    @classmethod
    def from_scipy(cls, matrix, directed=False, *, weighted=True, symmetrize=False,
                   drop_self_loops=False, duplicates="sum", device=None):
        """A graph from a square scipy.sparse matrix or array: entry (i, j) is
        the edge i -> j with weight A[i, j] (weighted=False drops the values).
        Explicitly stored zeros are edges of weight 0; repeated entries of a
        COO matrix follow `duplicates` (default "sum", as SciPy) when
        directed, and add up when undirected (the matrix goes through
        tocsr()).  Undirected unless directed=True: an undirected graph needs
        a symmetric matrix (else ValueError) or symmetrize=True."""
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
                                  duplicates=duplicates, device=device)
        csr = matrix.tocsr()
        return cls.from_csr(csr.indptr, csr.indices, csr.data if weighted else None,
                            directed=directed, symmetrize=symmetrize,
                            drop_self_loops=drop_self_loops, duplicates=duplicates,
                            device=device)

    @classmethod
    def from_networkx(cls, G, weight="weight", *, default_weight=1.0, device=None):
        """A graph from a NetworkX graph; vertex i is node ``nodes[i]`` (the
        order of G.nodes).  weight: the edge attribute holding weights (edges
        without it weigh default_weight), or None for an unweighted graph.
        default_weight must be a finite number >= 0 (ValueError), used or
        not.  A multigraph's parallel edges become one arc whose weight is their
        sum (their count when weight is None), as NetworkX's matrix
        conversions and its PageRank count them.  A NaN node (NetworkX takes
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
        index, offsets, indices, weights = _libgraph.adjacency_csr(
            nodes, adj, weight, default_weight, multigraph, count_parallel=multigraph)
        return cls._from_adjacency(nodes, index, offsets, indices, weights, directed, device)

    @classmethod
    def _from_adjacency(cls, nodes, index, offsets, indices, weights, directed, device=None):
        """The graph of CSR arrays given as bytes (int64 offsets, int32
        indices, float32 weights or None) and their node keys and index (None:
        made on first use): _libgraph.adjacency_csr's arrays (from_networkx,
        and the NetworkX backend, which keeps them too), or an unpickled graph's.
        An undirected graph's CSR holds both arcs of an edge (NetworkX's
        adjacency does), checked as from_csr checks any."""
        g = _libgraph.from_csr(_view(offsets, "q"), _view(indices, "i"), _view(weights, "f"),
                               1 if directed else 2, False, False, duplicates=0,
                               context=context(device))
        self = cls._wrap(g, nodes)
        self._node_index = index
        return self

    @classmethod
    def load(cls, path, format=None, directed=None, *, symmetrize=False, drop_self_loops=False,
             duplicates="keep", names=True, device=None):
        """Reads a graph file: .mtx (Matrix Market), .el / .wel (edge lists,
        0-based), .lgb (libgraph's binary CSR); format=None goes by the
        extension.  directed=None takes what the file records (.lgb; a .mtx
        header's "symmetric" or "general"; the header line libgraph writes
        at the top of .el/.wel), and a file that records nothing (an edge
        list from elsewhere) is undirected; True or False overrides the
        record.  A missing or malformed file raises FileFormatError (an
        OSError) naming the line.  A .lgb's vertex names become the node
        keys (two vertices with one name: FileFormatError naming both);
        names=False leaves them out."""
        g = _libgraph.read(_path(path), _format(format), _directedness(directed),
                           flag(symmetrize, "symmetrize"), flag(drop_self_loops, "drop_self_loops"),
                           duplicates=_duplicates(duplicates), context=context(device),
                           skip_names=not flag(names, "names"))
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
        """(offsets int64, indices int32, weights float32 or None): read-only
        views of the graph's out-edge arrays, no copy; they keep the graph alive."""
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
