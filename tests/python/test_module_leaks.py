"""The Python module leaks nothing: each call, good or bad, repeated a few
thousand times, with the growth of references (on a debug build), traced
memory and RSS bounded; and a check that the bound does fail on a leak.
"""
import gc
import os
import sys
import tracemalloc

import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

CPU = "cpu"


# ---------------------------------------------------------------------------
# Leaks: repeat each call a few thousand times, bound the growth
# ---------------------------------------------------------------------------

HAVE_TOTALREFCOUNT = hasattr(sys, "gettotalrefcount")


def _rss():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def _growth(fn, repeat):
    """(reference growth, traced-memory growth, RSS growth) of repeat calls."""
    for _ in range(50):  # warm up: caches, contexts, the exception machinery
        fn()
    gc.collect()
    refs0 = sys.gettotalrefcount() if HAVE_TOTALREFCOUNT else 0
    tracemalloc.start()
    mem0, _ = tracemalloc.get_traced_memory()
    rss0 = _rss()
    for _ in range(repeat):
        fn()
    gc.collect()
    mem1, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss1 = _rss()
    refs1 = sys.gettotalrefcount() if HAVE_TOTALREFCOUNT else 0
    return refs1 - refs0, mem1 - mem0, rss1 - rss0


def _no_leak(fn, repeat=2000):
    refs, mem, rss = _growth(fn, repeat)
    # one leaked array per call: >= 2000 references and >= 2000 * (object header
    # + data) traced bytes (the Buffers' data comes from PyMem_Malloc, which
    # tracemalloc sees; the results here hold >= 50 elements)
    if HAVE_TOTALREFCOUNT:
        assert refs < repeat // 4, f"{refs} references leaked over {repeat} calls"
    assert mem < 64 * 1024, f"{mem} bytes of traced memory kept over {repeat} calls"
    assert rss < 32 * 1024 * 1024, f"RSS grew {rss} bytes over {repeat} calls"


def _calls(graph):
    n = graph.num_vertices
    src = np.arange(200) % n
    dst = (np.arange(200) * 7) % n
    w64 = np.linspace(0.5, 2, 200)
    pers = np.linspace(0, 1, n)
    pers_dict = {v: 1.0 for v in range(0, n, 3)}
    ok = {
        "from_edges int32": lambda: lg.Graph.from_edges(src.astype(np.int32),
                                                        dst.astype(np.int32), num_vertices=n),
        "from_edges converted": lambda: lg.Graph.from_edges(src, dst, w64, directed=True),
        "from_edges list": lambda: lg.Graph.from_edges(src.tolist(), dst.tolist()),
        "from_csr": lambda: lg.Graph.from_csr(*graph.csr()),
        "csr": lambda: graph.csr(),
        "degrees": lambda: (graph.out_degrees(), graph.in_degrees()),
        "bfs": lambda: lg.bfs(graph, 0, device=CPU),
        "bfs parents multi": lambda: lg.bfs(graph, [0, 5, 9], parents=True, device=CPU),
        "pagerank": lambda: lg.pagerank(graph, device=CPU),
        "pagerank options": lambda: lg.pagerank(graph, personalization=pers, dangling=pers_dict,
                                                nstart=pers + 1, dtype="float32", device=CPU),
        "cc": lambda: lg.connected_components(graph, device=CPU),
        "ncc": lambda: lg.number_connected_components(graph, device=CPU),
        "generate": lambda: lg.generate_edges("kron", scale=6, edge_factor=2),
        "repr": lambda: repr(graph),
    }

    def raises(exc, f):
        def call():
            try:
                f()
            except exc:
                pass
            else:
                raise AssertionError("no exception")
        return call

    bad = {
        "bad id": raises(ValueError, lambda: lg.Graph.from_edges(src, dst - 1)),
        "bad id int32": raises(ValueError, lambda: lg.Graph.from_edges(
            src.astype(np.int32), dst.astype(np.int32), num_vertices=3)),
        "float ids": raises(TypeError, lambda: lg.Graph.from_edges(w64, w64)),
        "length": raises(ValueError, lambda: lg.Graph.from_edges(src, dst[:-1])),
        "nan weight": raises(ValueError, lambda: lg.Graph.from_edges(
            [0, 1], [1, 0], [1.0, float("nan")])),
        "wrong type": raises(TypeError, lambda: lg.Graph.from_edges({0: 1}, dst)),
        "bad source": raises(ValueError, lambda: lg.bfs(graph, n, device=CPU)),
        "bad sources": raises(ValueError, lambda: lg.bfs(graph, [0, 1, n], device=CPU)),
        "bad pers": raises(ValueError, lambda: lg.pagerank(graph, personalization=pers[:-1],
                                                           device=CPU)),
        "zero pers": raises(ValueError, lambda: lg.pagerank(graph, personalization=pers * 0,
                                                            device=CPU)),
        "not converged": raises(lg.NotConverged, lambda: lg.pagerank(graph, max_iter=1, tol=0,
                                                                     device=CPU)),
        "missing file": raises(lg.FileFormatError, lambda: lg.Graph.load("/nonexistent/x.el")),
        "bad device": raises(ValueError, lambda: lg.bfs(graph, 0, device="tpu")),
    }
    return ok, bad


@pytest.fixture(scope="module")
def leak_graph():
    return lg.Graph.generate("urand", scale=8, edge_factor=4, seed=2)


def test_leak_check_is_meaningful(leak_graph):
    """The bound fails when every call leaks one (small) result array."""
    kept = []
    with pytest.raises(AssertionError):
        _no_leak(lambda: kept.append(lg.connected_components(leak_graph, device=CPU)))
    kept.clear()
    kept2 = []
    with pytest.raises(AssertionError):  # a leaked exception (with its .scores) too
        def f():
            try:
                lg.pagerank(leak_graph, max_iter=1, tol=0, device=CPU)
            except lg.NotConverged as e:
                kept2.append(e)
        _no_leak(f)
    kept2.clear()


@pytest.mark.parametrize("name", list(_calls(lg.Graph.from_edges([0], [1]))[0]))
def test_no_leak_on_success(leak_graph, name):
    ok, _ = _calls(leak_graph)
    _no_leak(ok[name], repeat=1000 if name.startswith(("from_edges list", "pagerank")) else 2000)


@pytest.mark.parametrize("name", list(_calls(lg.Graph.from_edges([0], [1]))[1]))
def test_no_leak_on_error(leak_graph, name):
    _, bad = _calls(leak_graph)
    _no_leak(bad[name])


def test_views_release_their_graph(leak_graph):
    """csr() views keep the graph alive, and free it when they go."""
    def f():
        h = lg.Graph.from_edges(np.arange(300) % 100, np.arange(300) % 97)
        off, idx, _ = h.csr()
        del h
        return int(off[-1]) + int(idx[0])
    _no_leak(f, repeat=1000)
