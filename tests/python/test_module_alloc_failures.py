"""Every entry point of the Python module with the C library's allocations
failing one after another (the library's test hook, _fail_allocations_after):
each call either works or raises libgraph.OutOfMemoryError (a MemoryError),
and everything made before stays usable, with the results it had.

For each call the sweep fails the k-th allocation, k = 0, 1, 2, ... until
the call goes through; the C library's own sweeps (tests/alloc_sites.sh)
say which of its allocation sites this reaches.
"""
import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")
from libgraph import _libgraph  # noqa: E402

SRC = [0, 1, 2, 2, 3, 4]
DST = [1, 2, 0, 3, 4, 0]
W = [0.5, 1.0, 2.0, 3.0, 1.5, 0.25]


def sweep(call):
    """call() with the k-th library allocation failing, for k = 0, 1, ...;
    returns (its result once it went through, how many times it failed)."""
    for k in range(2000):
        _libgraph._fail_allocations_after(k)
        try:
            return call(), k
        except lg.OutOfMemoryError as e:
            assert isinstance(e, MemoryError) and str(e)
        finally:
            _libgraph._fail_allocations_after(-1)
    raise AssertionError("the call never went through")


@pytest.fixture(scope="module")
def reference():
    g = lg.Graph.from_edges(SRC, DST, weights=W, directed=True)
    return g, lg.pagerank(g), lg.bfs(g, 0), lg.connected_components(g)


def still_usable(reference):
    g, pr, dist, cc = reference
    np.testing.assert_array_equal(lg.pagerank(g), pr)
    np.testing.assert_array_equal(lg.bfs(g, 0), dist)
    np.testing.assert_array_equal(lg.connected_components(g), cc)


BUILDERS = {
    "from_edges": lambda: lg.Graph.from_edges(SRC, DST, weights=W, directed=True),
    "from_edges names": lambda: lg.Graph.from_edges(["a", "b", "c", "c", "d", "e"],
                                                    ["b", "c", "a", "d", "e", "a"]),
    "from_csr": lambda: lg.Graph.from_csr([0, 1, 2, 4, 5, 6], [1, 2, 0, 3, 4, 0], directed=True),
    "from_scipy": lambda: lg.Graph.from_scipy(sp.coo_array((W, (SRC, DST)), shape=(5, 5)),
                                              directed=True),
    "from_networkx": lambda: lg.Graph.from_networkx(nx.les_miserables_graph()),
    "from_pandas": lambda: lg.Graph.from_pandas(pd.DataFrame({"source": SRC, "target": DST})),
}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_building_under_allocation_failures(reference, name):
    g, failures = sweep(BUILDERS[name])
    assert failures > 0  # the builder allocates, so some allocation failed first
    assert g.num_vertices == BUILDERS[name]().num_vertices
    still_usable(reference)


@pytest.mark.parametrize("algorithm", ["pagerank", "pagerank_f32", "bfs", "bfs_parents",
                                       "connected_components"])
def test_algorithms_under_allocation_failures(reference, algorithm):
    g, pr, dist, cc = reference
    calls = {
        "pagerank": (lambda: lg.pagerank(g), pr),
        "pagerank_f32": (lambda: lg.pagerank(g, dtype=np.float32), None),
        "bfs": (lambda: lg.bfs(g, 0), dist),
        "bfs_parents": (lambda: lg.bfs(g, 0, parents=True)[0], dist),
        "connected_components": (lambda: lg.connected_components(g), cc),
    }
    call, want = calls[algorithm]
    got, _ = sweep(call)
    if want is not None:
        np.testing.assert_array_equal(got, want)
    still_usable(reference)


@pytest.mark.parametrize("ext", ["mtx", "el", "wel", "lgb"])
def test_files_under_allocation_failures(reference, tmp_path, ext):
    g = reference[0]
    path = tmp_path / f"g.{ext}"
    _, failures = sweep(lambda: g.save(path))
    assert failures > 0 and [p.name for p in tmp_path.iterdir()] == [path.name]
    back, failures = sweep(lambda: lg.Graph.load(path))
    assert failures > 0 and back.num_edges == g.num_edges
    still_usable(reference)


def test_names_and_pickles_under_allocation_failures(reference):
    g = lg.Graph.from_edges(SRC, DST, directed=True)
    sweep(lambda: setattr(g, "names", ["v0", "v1", "v2", "v3", "v4"]))
    assert g.names == ["v0", "v1", "v2", "v3", "v4"]
    copy, failures = sweep(lambda: pickle.loads(pickle.dumps(g)))
    assert failures > 0 and copy.names == g.names and copy.num_edges == g.num_edges
    still_usable(reference)
