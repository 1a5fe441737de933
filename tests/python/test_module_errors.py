"""The Python module on bad input: every mistake raises the documented
exception (docs/PYTHON.md, "Errors") and never crashes.  That no call, good
or bad, leaks references or memory is test_module_leaks.py."""
import array

import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

CPU = "cpu"


@pytest.fixture(scope="module")
def g():
    rng = np.random.default_rng(0)
    return lg.Graph.from_edges(rng.integers(0, 50, 200), rng.integers(0, 50, 200),
                               rng.uniform(0.5, 2, 200), num_vertices=50, directed=True)


# ---------------------------------------------------------------------------
# The exception classes
# ---------------------------------------------------------------------------


def test_exception_hierarchy():
    table = {
        lg.InvalidArgumentError: ValueError,
        lg.OutOfMemoryError: MemoryError,
        lg.DeviceError: RuntimeError,
        lg.UnsupportedError: NotImplementedError,
        lg.FileFormatError: OSError,
        lg.NotConverged: RuntimeError,
        lg.InternalError: RuntimeError,
    }
    for cls, base in table.items():
        assert issubclass(cls, lg.Error), cls
        assert issubclass(cls, base), cls
    assert issubclass(lg.Error, Exception)


def lib_error(excinfo, base):
    """An exception from the C library: an lg.Error of the documented kind."""
    assert isinstance(excinfo.value, base)
    assert isinstance(excinfo.value, lg.Error), type(excinfo.value)
    assert str(excinfo.value)


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------


def test_float_ids_are_type_errors():
    for bad in (np.array([0.0, 1.0]), np.array([0, 1], np.float32), [0.0, 1.0], [0, 1.5],
                array.array("d", [0, 1])):
        with pytest.raises(TypeError):
            lg.Graph.from_edges(bad, [1, 0])
        with pytest.raises(TypeError):
            lg.Graph.from_edges([1, 0], bad)
    with pytest.raises(TypeError):
        lg.Graph.from_csr(np.array([0.0, 1.0]), [0])
    with pytest.raises(TypeError):
        lg.Graph.from_csr([0, 1], np.array([0.0]))


def test_length_mismatch_is_value_error(g):
    with pytest.raises(ValueError, match="src|dst"):
        lg.Graph.from_edges([0, 1, 2], [1, 2])
    with pytest.raises(ValueError, match="weights"):
        lg.Graph.from_edges([0, 1], [1, 2], [1.0])
    with pytest.raises(ValueError, match="weights"):
        lg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0, 3.0])
    n = g.num_vertices
    for name in ("personalization", "nstart", "dangling"):
        for vec in (np.ones(n - 1), np.ones(n + 1), [], [1.0]):
            with pytest.raises(ValueError, match=name):
                lg.pagerank(g, **{name: vec}, device=CPU)
    # CSR: offsets[-1] must be the length of indices
    with pytest.raises(ValueError):
        lg.Graph.from_csr([0, 1, 3], [0, 1])
    with pytest.raises(ValueError):
        lg.Graph.from_csr([0, 1, 2], [0, 1], [1.0])
    with pytest.raises(ValueError):
        lg.Graph.from_csr([], [])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, list])
def test_bad_ids_are_value_errors(dtype):
    mk = (lambda a: list(a)) if dtype is list else (lambda a: np.array(a, dtype=dtype))
    with pytest.raises(ValueError) as e:
        lg.Graph.from_edges(mk([0, -1]), mk([1, 0]))
    with pytest.raises(ValueError):
        lg.Graph.from_edges(mk([0, 1]), mk([1, -3]), num_vertices=5)
    with pytest.raises(ValueError):
        lg.Graph.from_edges(mk([0, 5]), mk([1, 0]), num_vertices=5)  # id == num_vertices
    with pytest.raises(ValueError):
        lg.Graph.from_edges(mk([0, 1]), mk([1, 9]), num_vertices=5)
    del e


def test_ids_beyond_int32_are_value_errors():
    big = np.array([0, 2 ** 31], dtype=np.int64)
    with pytest.raises(ValueError, match="src"):
        lg.Graph.from_edges(big, [0, 1])
    with pytest.raises(ValueError, match="dst"):
        lg.Graph.from_edges([0, 1], big)
    with pytest.raises(ValueError):
        lg.Graph.from_edges(np.array([0, 2 ** 31 - 1 + 10], np.uint32), [0, 1])
    with pytest.raises(ValueError):
        lg.Graph.from_edges(np.array([0, 2 ** 63], np.uint64), [0, 1])
    with pytest.raises(ValueError):
        lg.Graph.from_edges(np.array([0, -(2 ** 40)], np.int64), [0, 1])
    with pytest.raises(ValueError):
        lg.Graph.from_edges([0, 2 ** 31], [0, 1])
    with pytest.raises(ValueError):
        lg.Graph.from_edges([0, 2 ** 70], [0, 1])  # beyond int64 too
    with pytest.raises(ValueError):
        lg.Graph.from_edges([0, -(2 ** 70)], [0, 1])
    # the largest id that fits, with too few vertices: the library's ValueError
    with pytest.raises(ValueError):
        lg.Graph.from_edges(np.array([0, 2 ** 31 - 1], np.int64), [0, 1], num_vertices=10)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e39, 1e-50])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, list])
def test_bad_weights_are_value_errors(bad, dtype):
    """NaN and infinities never; 1e39 and 1e-50 (beyond float32) only as
    float32 weights, asked for or given."""
    if dtype is np.float32 and abs(bad) in (1e39, 1e-50):
        pytest.skip("not a float32")
    w = [1.0, bad] if dtype is list else np.array([1.0, bad], dtype=dtype)
    for weight_dtype in (None, "float32"):
        if weight_dtype is None and np.isfinite(bad) and dtype is not np.float32:
            g = lg.Graph.from_edges([0, 1], [1, 0], w, directed=True)
            assert g.weight_dtype == "float64" and g.csr()[2].tolist() == [1.0, bad]
            continue
        with pytest.raises(ValueError):
            lg.Graph.from_edges([0, 1], [1, 0], w, weight_dtype=weight_dtype)
        with pytest.raises(ValueError):
            lg.Graph.from_csr([0, 1, 2], [1, 0], w, weight_dtype=weight_dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, list])
def test_negative_weights_are_kept(dtype):
    w = [1.0, -2.5] if dtype is list else np.array([1.0, -2.5], dtype=dtype)
    g = lg.Graph.from_edges([0, 1], [1, 2], w, directed=True)
    assert g.negative_weights and g.csr()[2].tolist() == [1.0, -2.5]
    assert g.weight_dtype == ("float32" if dtype is np.float32 else "float64")
    assert lg.sssp(g, 0).tolist() == [0.0, 1.0, -1.5]
    with pytest.raises(ValueError, match="the arc 1 -> 2 weighs -2.5: PageRank needs"):
        lg.pagerank(g)
    with pytest.raises(ValueError, match="delta-stepping needs weights >= 0"):
        lg.sssp(g, 0, method="delta-stepping")
    assert not lg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0]).negative_weights


def test_two_dimensional_arrays_are_value_errors(g):
    a2 = np.zeros((2, 2), np.int32)
    with pytest.raises(ValueError):
        lg.Graph.from_edges(a2, a2)
    with pytest.raises(ValueError):
        lg.Graph.from_edges([0, 1], [1, 0], np.ones((2, 1)))
    with pytest.raises(ValueError):
        lg.Graph.from_csr(np.zeros((1, 3), np.int64), [0, 0])
    with pytest.raises(ValueError):
        lg.pagerank(g, personalization=np.ones((g.num_vertices, 1)), device=CPU)
    with pytest.raises(ValueError):
        lg.bfs(g, np.zeros((1, 2), np.int32), device=CPU)
    with pytest.raises((ValueError, TypeError)):
        lg.Graph.from_edges(np.int32(3), np.int32(4))  # 0-dimensional


def test_wrong_types_are_type_errors(g):
    for bad in ({0: 1}, "01", None, 3, 2.5, object(), {0, 1}):
        with pytest.raises(TypeError):
            lg.Graph.from_edges(bad, [1, 0])
        with pytest.raises(TypeError):
            lg.Graph.from_edges([1, 0], bad)
        with pytest.raises(TypeError):
            lg.Graph.from_csr(bad, [0])
    for bad in ("abc", object(), 3, {1.0}):
        with pytest.raises(TypeError):
            lg.Graph.from_edges([0, 1], [1, 0], bad)
    # sequence elements of the wrong type
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0, "1"], [1, 0])
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0, None], [1, 0])
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0, 1], [1, 0], [1.0, "x"])
    # complex and structured arrays are not numbers libgraph reads
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0, 1], [1, 0], np.array([1, 2], np.complex128))
    with pytest.raises(TypeError):
        lg.Graph.from_edges(np.zeros(2, dtype=[("a", "i4"), ("b", "i4")]), [1, 0])
    # not a graph
    for f in (lambda x: lg.bfs(x, 0), lambda x: lg.pagerank(x), lg.connected_components,
              lg.number_connected_components):
        for bad in (None, "g", np.zeros(3), g._g if hasattr(g, "_g") else 1):
            with pytest.raises(TypeError):
                f(bad)
    # scalar options of the wrong type
    with pytest.raises(TypeError):
        lg.pagerank(g, max_iter="100", device=CPU)
    with pytest.raises(TypeError):
        lg.pagerank(g, alpha=None, device=CPU)
    with pytest.raises(TypeError):
        lg.bfs(g, 0, max_depth="3", device=CPU)
    with pytest.raises(TypeError):
        lg.bfs(g, "0", device=CPU)
    with pytest.raises(TypeError):
        lg.bfs(g, 1.0, device=CPU)
    with pytest.raises(TypeError):
        lg.bfs(g, None, device=CPU)
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0], [1], num_vertices="5")
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0], [1], num_vertices=5.0)
    with pytest.raises(TypeError):
        lg.pagerank(g, personalization="abc", device=CPU)
    with pytest.raises(TypeError):
        lg.Graph.from_scipy(np.eye(3))
    with pytest.raises(TypeError):
        lg.Graph.from_networkx([(0, 1)])
    with pytest.raises(TypeError):
        lg.Graph.load(None)
    with pytest.raises(TypeError):
        lg.bfs(g, 0, device=3)


def test_huge_num_vertices_is_value_error():
    for n in (2 ** 40, 2 ** 31, -1, -(2 ** 40), 2 ** 64):
        with pytest.raises(ValueError):
            lg.Graph.from_edges([0], [1], num_vertices=n)
        with pytest.raises(ValueError):
            lg.Graph.from_edges([], [], num_vertices=n)


def test_bad_source_is_value_error(g):
    n = g.num_vertices
    for s in (-1, n, n + 5, 2 ** 31, 2 ** 40, -(2 ** 40), 2 ** 70, np.int64(n), np.uint64(2 ** 63)):
        with pytest.raises(ValueError):
            lg.bfs(g, s, device=CPU)
        with pytest.raises(ValueError):
            lg.bfs(g, s, parents=True, device=CPU)
    for srcs in ([0, n], [-1], np.array([0, 1, n], np.int32), [0, 2 ** 40]):
        with pytest.raises(ValueError):
            lg.bfs(g, srcs, device=CPU)
    with pytest.raises(ValueError):
        lg.bfs(g, [], device=CPU)  # at least one source
    with pytest.raises(ValueError):
        lg.bfs(lg.Graph.from_edges([], []), 0, device=CPU)


def test_bad_options_are_value_errors(g):
    for kw in ({"alpha": -0.1}, {"alpha": 1.5}, {"alpha": float("nan")}, {"max_iter": -1},
               {"tol": -1.0}, {"tol": float("nan")}, {"dtype": "float16"}, {"dtype": "int32"}):
        with pytest.raises(ValueError):
            lg.pagerank(g, device=CPU, **kw)
    n = g.num_vertices
    for name in ("personalization", "nstart", "dangling"):
        for vec in (np.zeros(n), -np.ones(n), np.full(n, np.nan), np.full(n, np.inf)):
            with pytest.raises(ValueError) as e:
                lg.pagerank(g, **{name: vec}, device=CPU)
            lib_error(e, ValueError)
    with pytest.raises(ValueError):
        lg.pagerank(g, personalization={n + 3: 1.0}, device=CPU)
    with pytest.raises(ValueError):
        lg.pagerank(g, personalization={-1: 1.0}, device=CPU)
    for kw in ({"duplicates": "avg"}, {"duplicates": None}):
        with pytest.raises(ValueError):
            lg.Graph.from_edges([0], [1], **kw)
    with pytest.raises(ValueError):
        lg.Graph.generate("gnp", scale=4)
    for scale, ef in ((0, 16), (31, 16), (-1, 16), (4, 0), (4, -2)):
        with pytest.raises(ValueError):
            lg.Graph.generate("kron", scale=scale, edge_factor=ef)
        with pytest.raises(ValueError):
            lg.generate_edges("urand", scale=scale, edge_factor=ef)
    with pytest.raises(ValueError):
        lg.Graph.generate("kron", scale=4, seed=-1)
    with pytest.raises(ValueError):
        lg.Context(device="cpu", num_threads=-1)
    # a CSR that is not one
    with pytest.raises(ValueError) as e:
        lg.Graph.from_csr([0, 2, 1], [0])  # decreasing offsets
    with pytest.raises(ValueError):
        lg.Graph.from_csr([1, 2], [0, 0])  # offsets[0] != 0
    with pytest.raises(ValueError):
        lg.Graph.from_csr([0, 1, 2], [1, 5])  # index out of range
    with pytest.raises(ValueError) as e:
        lg.Graph.from_csr([0, 1, 1], [1], directed=False)  # not symmetric
    lib_error(e, ValueError)


def test_bad_device_is_value_error(g):
    for dev in ("tpu", "GPU:x", "gpu:", "gpu:-1", "", "cpu:0 ", "cuda"):
        with pytest.raises(ValueError):
            lg.bfs(g, 0, device=dev)
        with pytest.raises(ValueError):
            lg.Context(device=dev)
        with pytest.raises(ValueError):
            lg.Graph.from_edges([0], [1], device=dev)


def _gpu_present():
    try:
        lg.Context(device="gpu")
        return True
    except lg.DeviceError:
        return False


def test_gpu_without_gpu_is_device_error(g):
    if _gpu_present():
        pytest.skip("a GPU context opens here: nothing to refuse")
    for call in (lambda: lg.Context(device="gpu"), lambda: lg.Context(device="gpu:3"),
                 lambda: lg.bfs(g, 0, device="gpu"), lambda: lg.pagerank(g, device="gpu"),
                 lambda: lg.connected_components(g, device="gpu:0"),
                 lambda: lg.set_default_device("gpu")):
        with pytest.raises(lg.DeviceError) as e:
            call()
        lib_error(e, RuntimeError)
    assert lg.get_default_device() == "auto"
    # "auto" quietly falls back to the CPU
    lg.bfs(g, 0, device="auto")
    assert lg.last_backend() == "cpu"


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def test_missing_file_is_file_format_error(tmp_path):
    for name in ("nope.el", "nope.mtx", "nope.wel", "nope.lgb"):
        with pytest.raises(lg.FileFormatError) as e:
            lg.Graph.load(tmp_path / name)
        lib_error(e, OSError)
        assert name in str(e.value)
    with pytest.raises(lg.FileFormatError):
        lg.Graph.load(tmp_path / "no_dir" / "x.el")
    # writing into a directory that does not exist
    g = lg.Graph.from_edges([0], [1])
    with pytest.raises(lg.FileFormatError):
        g.save(tmp_path / "no_dir" / "x.el")
    assert not (tmp_path / "no_dir").exists()


def test_unknown_format(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n")
    # an unknown extension: the library's InvalidArgumentError
    with pytest.raises(ValueError) as e:
        lg.Graph.load(p)
    lib_error(e, ValueError)
    with pytest.raises(ValueError):
        lg.Graph.load(tmp_path / "noext")
    # format named: read as that
    assert lg.Graph.load(p, format="el").num_edges == 2  # undirected: no header line says otherwise
    with pytest.raises(ValueError):
        lg.Graph.load(p, format="csv")
    g = lg.Graph.from_edges([0], [1])
    with pytest.raises(ValueError):
        g.save(tmp_path / "g.csv")
    with pytest.raises(ValueError):
        g.save(tmp_path / "g.el", format="gml")
    assert not (tmp_path / "g.csv").exists()


@pytest.mark.parametrize("name,text", [
    ("bad.el", "0 1\n1 x\n"),
    ("bad2.el", "0 1\n-1 2\n"),
    ("bad3.el", "0\n"),
    ("bad.wel", "0 1 1.0\n1 2 nan\n"),
    ("bad2.wel", "0 1 1.0\n1 2 1e39\n"),
    ("bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.0\n"),
    ("bad2.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1.0\n"),
    ("bad3.mtx", "not a header\n"),
    ("bad.lgb", "LGB garbage that is not a libgraph binary file\n"),
    ("empty.lgb", ""),
])
def test_malformed_file_is_file_format_error(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(lg.FileFormatError) as e:
        lg.Graph.load(p)
    lib_error(e, OSError)


def test_truncated_binary_is_file_format_error(tmp_path):
    g = lg.Graph.generate("urand", scale=6, edge_factor=4)
    p = tmp_path / "g.lgb"
    g.save(p)
    data = p.read_bytes()
    for cut in (8, len(data) // 2, len(data) - 1):
        q = tmp_path / f"cut{cut}.lgb"
        q.write_bytes(data[:cut])
        with pytest.raises(lg.FileFormatError):
            lg.Graph.load(q)
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF  # checksummed
    q = tmp_path / "flip.lgb"
    q.write_bytes(bytes(flipped))
    with pytest.raises(lg.FileFormatError):
        lg.Graph.load(q)
