"""Python inputs turned into what the builders take: directedness and
duplicate policies, file formats, vertex names (their check, encoding and
index), columns of a DataFrame, edge ids of any hashable kind, and the
arguments of the generators.  libgraph.Graph's constructors call these."""

import numbers
import operator
import os
import sys
import threading

from . import _libgraph
from ._arrays import have_numpy
from ._checks import INT_MAX, INT_MIN, flag, integer, path as _path
from ._device import context
from ._gpu_arrays import device_array

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


_WEIGHT_TYPES = {None: 0, "float32": 1, "float64": 2}


def _weight_type(weights, weight_dtype):
    """The C weight_type for weights (1 float32, 2 float64; 0 without
    weights): weight_dtype "float32" or "float64" (a numpy dtype or type
    too), or None: the input's own, float32 for an array of float32 (or
    float16) and float64 for anything else (float64 arrays, Python numbers,
    integers: exact in float64 as NetworkX's own sums need)."""
    if weight_dtype is not None:
        name = getattr(weight_dtype, "__name__", None) or str(weight_dtype)
        name = {"f4": "float32", "f8": "float64", "f": "float32", "d": "float64"}.get(name, name)
        if name not in ("float32", "float64"):
            raise ValueError(f"weight_dtype: must be None, 'float32' or 'float64', not "
                             f"{weight_dtype!r}")
        return 0 if weights is None else _WEIGHT_TYPES[name]
    if weights is None:
        return 0
    dtype = getattr(weights, "dtype", None)
    if dtype is None:  # memoryview, array.array
        code = getattr(weights, "format", None) or getattr(weights, "typecode", None)
        return 1 if code in ("f", "e") else 2
    return 1 if str(dtype) in ("float32", "float16") else 2


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
