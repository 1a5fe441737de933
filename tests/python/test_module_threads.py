"""The Python module from several threads: builds and algorithms release the
GIL (Python runs while two long PageRanks are both inside the library), and
one Graph shared by many threads gives every thread the right answers.  How
much two calls gain from overlapping is timed in bench/python_api.py
(group threads), not here."""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import networkx as nx
import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

ITERS = 300  # about 1-2 s of PageRank on kron scale 17 with one thread


@pytest.fixture(scope="module")
def big():
    return lg.Graph.generate("kron", scale=17, edge_factor=16, seed=1, device="cpu")


def long_pagerank(g, ctx):
    """ITERS iterations that cannot converge (tol=0): the last iterate."""
    with pytest.raises(lg.NotConverged) as e:
        lg.pagerank(g, max_iter=ITERS, tol=0.0, device=ctx)
    assert e.value.iterations == ITERS
    return np.asarray(e.value.scores)


class Ticker:
    """A thread that takes the GIL every millisecond and notes when: while a
    call holds the GIL it cannot tick, so ticks inside a call's span show
    the call released it."""

    def __init__(self):
        self.ticks = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self):
        while not self._done.is_set():
            self.ticks.append(time.monotonic())
            time.sleep(0.001)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()

    def within(self, start, end):
        return sum(start < t < end for t in self.ticks)


# A call that held the GIL would let the ticker in at most once, between the
# caller noting its start and entering the call; a few ticks prove it ran
# while the call did.  No time is compared with another.
MIN_TICKS = 3


def test_python_runs_during_a_call(big):
    """While one thread is inside a long call, another runs Python code."""
    ctx = lg.Context(device="cpu", num_threads=1)
    with Ticker() as ticker:
        t0 = time.monotonic()
        long_pagerank(big, ctx)
        t1 = time.monotonic()
    assert ticker.within(t0, t1) >= MIN_TICKS, f"{ticker.within(t0, t1)} ticks in the call"


def test_two_pageranks_overlap(big):
    """Two PageRanks on two threads are inside the library at once (Python
    ran while both were), and each gives the one-thread answer."""
    ctxs = [lg.Context(device="cpu", num_threads=1) for _ in range(2)]
    assert all(c.num_threads == 1 and c.backend == "cpu" for c in ctxs)
    want = long_pagerank(big, ctxs[0])
    results, spans = [None, None], [None, None]
    barrier = threading.Barrier(2)

    def work(i):
        barrier.wait()
        t0 = time.monotonic()
        results[i] = long_pagerank(big, ctxs[i])
        spans[i] = (t0, time.monotonic())

    with Ticker() as ticker:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for r in results:
        np.testing.assert_array_equal(r, want)  # one thread each: bit-identical
    both = (max(s[0] for s in spans), min(s[1] for s in spans))
    assert both[0] < both[1], f"the calls did not overlap: {spans}"
    assert ticker.within(*both) >= MIN_TICKS, f"{ticker.within(*both)} ticks while both ran"


def test_many_threads_many_small_calls():
    rng = np.random.default_rng(4)
    n = 400
    src, dst = rng.integers(0, n, 1600), rng.integers(0, n, 1600)
    w = rng.uniform(0.5, 2.0, 1600).astype(np.float32)
    g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=True)
    G = nx.MultiDiGraph()
    G.add_nodes_from(range(n))
    for s, d, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        G.add_edge(s, d, weight=x)
    want_d = {}
    for s in range(0, n, 37):
        d = np.full(n, -1)
        for v, k in nx.single_source_shortest_path_length(G, s).items():
            d[v] = k
        want_d[s] = d
    r = nx.pagerank(G, tol=1e-10, max_iter=500)
    want_pr = np.array([r[v] for v in range(n)])
    labels = np.full(n, -1)
    for comp in nx.weakly_connected_components(G):
        labels[list(comp)] = min(comp)
    ctx = lg.Context(device="cpu", num_threads=1)

    def work(k):
        errors = 0
        for i in range(60):
            s = list(want_d)[(k + i) % len(want_d)]
            dev = ctx if i % 2 else "cpu"
            if not np.array_equal(lg.bfs(g, s, device=dev), want_d[s]):
                errors += 1
            d, p = lg.bfs(g, s, parents=True, device=dev)
            if not np.array_equal(d, want_d[s]) or p[s] != s:
                errors += 1
            if i % 5 == 0:
                x = lg.pagerank(g, tol=1e-10, max_iter=500, device=dev)
                if not np.allclose(x, want_pr, rtol=1e-6, atol=1e-12):
                    errors += 1
            if not np.array_equal(lg.connected_components(g, device=dev), labels):
                errors += 1
            if lg.last_backend() != "cpu":  # per thread
                errors += 1
        return errors

    with ThreadPoolExecutor(8) as ex:
        assert list(ex.map(work, range(8))) == [0] * 8


def test_concurrent_builds_and_generators():
    rng = np.random.default_rng(6)
    n = 5000
    src = rng.integers(0, n, 40000).astype(np.int32)  # used in place, read by all
    dst = rng.integers(0, n, 40000).astype(np.int32)
    w = rng.uniform(0.5, 2, 40000).astype(np.float32)
    ref = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=True)
    ref_csr = [np.array(a) for a in ref.csr()]
    gen_ref = [np.array(a) for a in lg.Graph.generate("urand", scale=10, seed=9).csr()[:2]]

    def work(k):
        for _ in range(10):
            g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=True)
            for a, b in zip(g.csr(), ref_csr):
                if not np.array_equal(a, b):
                    return False
            h = lg.Graph.generate("urand", scale=10, seed=9)
            for a, b in zip(h.csr()[:2], gen_ref):
                if not np.array_equal(a, b):
                    return False
        return True

    with ThreadPoolExecutor(8) as ex:
        assert all(ex.map(work, range(8)))


def test_not_converged_from_threads():
    """Each thread's NotConverged carries its own scores and count."""
    g = lg.Graph.generate("kron", scale=9, seed=2)

    def work(k):
        it = 1 + k % 4
        try:
            lg.pagerank(g, max_iter=it, tol=0.0, device="cpu")
        except lg.NotConverged as e:
            return e.iterations == it and len(e.scores) == g.num_vertices
        return False

    with ThreadPoolExecutor(8) as ex:
        assert all(ex.map(work, range(64)))


def _ticks_during(f):
    """How many 1 ms ticks another Python thread makes while f() runs, and how
    long f took."""
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.005)
    t0 = time.perf_counter()
    f()
    t1 = time.perf_counter()
    done.set()
    t.join()
    return len([x for x in ticks if t0 < x < t1]), t1 - t0


@pytest.mark.parametrize("what", ["generate", "generate_edges", "from_edges", "from_csr", "load",
                                  "save", "connected_components"])
def test_builds_and_io_release_the_gil(big, tmp_path, what):
    ctx = lg.Context(device="cpu", num_threads=1)
    if what == "generate":
        f = lambda: lg.Graph.generate("kron", scale=18, device=ctx)  # noqa: E731
    elif what == "generate_edges":
        f = lambda: lg.generate_edges("kron", scale=19, device=ctx)  # noqa: E731
    elif what == "from_edges":
        src, dst = lg.generate_edges("kron", scale=18, device=ctx)  # int32: used in place
        f = lambda: lg.Graph.from_edges(src, dst, device=ctx)  # noqa: E731
    elif what == "from_csr":
        off, idx, _ = big.csr()
        f = lambda: [lg.Graph.from_csr(off, idx, directed=False, device=ctx)  # noqa: E731
                     for _ in range(5)]
    elif what == "load":
        p = tmp_path / "big.el"
        big.save(p)
        f = lambda: lg.Graph.load(p, device=ctx)  # noqa: E731
    elif what == "save":
        f = lambda: [big.save(tmp_path / f"b{i}.wel") for i in range(2)]  # noqa: E731
    else:
        f = lambda: [lg.connected_components(big, device=ctx) for _ in range(10)]  # noqa: E731
    n, dt = _ticks_during(f)
    if dt < 0.02:
        pytest.skip(f"{what} took only {dt * 1e3:.1f} ms here: too short to tell")
    # a held GIL lets the ticker in only at the interpreter's switch interval
    # (5 ms) at best, and not at all inside one C call
    assert n > 0.25 * dt / 0.001, f"{what}: {n} ticks in {dt * 1e3:.0f} ms"
