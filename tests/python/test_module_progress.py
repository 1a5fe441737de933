"""Long calls that can be stopped and watched: Ctrl-C (a real SIGINT sent to
the process) stops PageRank, BFS, the centralities and a build between two steps with
KeyboardInterrupt and leaves the graph usable; loads and builds show their
progress through set_progress's function; PageRank says what it did
(iterations, the last L1 change, converged) and the residual is checked
against a power iteration in NumPy.
"""
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")
from libgraph import _libgraph  # noqa: E402

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signals go to the main thread")


def interrupted(call, where, delay=0.3):
    """Sends SIGINT to this process `delay` seconds into call(), which must
    end with KeyboardInterrupt raised inside the extension's call made by
    the libgraph function `where` (the innermost Python frame); returns the
    seconds from the signal to the exception.  Python's own SIGINT handler
    is installed for the while (a process started in the background starts
    with SIGINT ignored, and Python then leaves it so)."""
    sent = []

    def fire():
        time.sleep(delay)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    t = threading.Thread(target=fire)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt) as e:
            call()
        assert e.traceback[-1].name == where
        return time.perf_counter() - sent[0]
    finally:
        # a call that ended first has failed the test; the signal still comes,
        # and must land here, not in the next test
        for _ in range(2):
            try:
                t.join()
                time.sleep(0.01)
            except KeyboardInterrupt:
                pass
        signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="module")
def kron():
    return lg.Graph.generate("kron", 14, device="cpu")


def test_ctrl_c_stops_pagerank(kron):
    # tol 0 and 100000 iterations run for half a minute and more
    want = lg.pagerank(kron, device="cpu")
    interrupted(lambda: lg.pagerank(kron, tol=0.0, max_iter=10**5, device="cpu"), "pagerank")
    # the graph is as it was: the next call gives the same scores (up to the
    # summation order, which a call expecting many iterations may change)
    np.testing.assert_allclose(lg.pagerank(kron, device="cpu"), want, rtol=1e-12)


def test_ctrl_c_stops_bfs():
    # a path of 2M vertices searched top-down: 2M levels, seconds of them
    n = 2_000_000
    g = lg.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n)
    interrupted(lambda: lg.bfs(g, 0, direction_alpha=0, device="cpu"), "bfs")
    d = lg.bfs(g, n - 1, max_depth=3, device="cpu")
    assert d[n - 4:].tolist() == [3, 2, 1, 0] and (d[: n - 4] == -1).all()


def interrupted_at_a_step(call, where, stage):
    """SIGINT sent to this process 5 ms after call() reports its first step of
    `stage` (a load or a build is too short on a fast machine to aim at by
    the clock): call() must end with KeyboardInterrupt raised inside it --
    at the next step, where the extension runs the signal handlers, or in
    the progress function (or what it calls: the timer's start), if the
    handler runs there first."""
    before_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.0, 0.0)
    timers = []

    def arm(s, done, total):
        if s == stage and not timers:
            timers.append(threading.Timer(0.005, os.kill, (os.getpid(), signal.SIGINT)))
            timers[0].start()

    try:
        lg.set_progress(arm)
        with pytest.raises(KeyboardInterrupt) as e:
            call()
        names = [f.name for f in e.traceback]
        assert names[-1] == where or "arm" in names, names
    finally:
        for t in timers:
            t.join()
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)
        signal.signal(signal.SIGINT, before_handler)


def test_ctrl_c_stops_a_build_and_a_load(tmp_path):
    src, dst = lg.generate_edges("kron", 20, device="cpu")
    interrupted_at_a_step(lambda: lg.Graph.from_edges(src, dst, device="cpu"), "from_edges",
                          "build")
    g = lg.Graph.from_edges(src[:100000], dst[:100000], device="cpu")
    g.save(tmp_path / "small.el")
    big = lg.Graph.from_edges(src, dst, device="cpu")
    big.save(tmp_path / "k.el")
    del src, dst
    interrupted_at_a_step(lambda: lg.Graph.load(tmp_path / "k.el", device="cpu"), "load", "parse")
    assert lg.Graph.load(tmp_path / "small.el", device="cpu").num_edges == g.num_edges
    assert lg.Graph.load(tmp_path / "k.el", device="cpu").num_edges == big.num_edges


def test_progress_of_loads_and_builds(tmp_path):
    g = lg.Graph.generate("kron", 12, device="cpu")
    g.save(tmp_path / "g.el")
    seen = []
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.05, 0.0)  # show from the first step
    try:
        lg.set_progress(lambda stage, done, total: seen.append((stage, done, total)))
        h = lg.Graph.load(tmp_path / "g.el", device="cpu")
        assert h.num_edges == g.num_edges
        stages = [s for s, _, _ in seen]
        assert stages[0] == "read" and stages[-1] == "done" and "parse" in stages
        assert stages[-2] == "build" and seen[-2][1:] == (11, 11)
        # stages come in order, done counts up within each
        order = {"read": 0, "parse": 1, "build": 2, "done": 3}
        assert [order[s] for s in stages] == sorted(order[s] for s in stages)
        size = os.path.getsize(tmp_path / "g.el")
        assert [x for x in seen if x[0] == "read"][-1][1:] == (size, size)
        # algorithms are not shown
        seen.clear()
        lg.pagerank(h, device="cpu")
        assert seen == []

        # an exception from the function stops the call and reaches the caller
        def refuse(stage, done, total):
            if stage == "parse":
                raise RuntimeError("enough")

        lg.set_progress(refuse)
        with pytest.raises(RuntimeError, match="enough"):
            lg.Graph.load(tmp_path / "g.el", device="cpu")
        lg.set_progress(False)
        assert lg.get_progress() is None
        assert lg.Graph.load(tmp_path / "g.el", device="cpu").num_edges == g.num_edges
        with pytest.raises(TypeError):
            lg.set_progress(3)
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)


def test_a_progress_exception_at_any_step(tmp_path):
    """The progress function raising at step k, for every k of a load: the
    exception reaches the caller (a stop at the last step, which the library
    does not honour, too: the graph it made is freed), and the next load is
    whole."""
    g = lg.Graph.generate("kron", 10, device="cpu")
    g.save(tmp_path / "g.el")

    class Stop(Exception):
        pass

    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.0, 0.0)
    try:
        steps = []
        lg.set_progress(lambda stage, done, total: steps.append(stage))
        lg.Graph.load(tmp_path / "g.el", device="cpu")
        assert steps[-1] == "done" and len(steps) > 10
        for k in range(1, len(steps)):  # the last call, "done", may not stop anything
            calls = []

            def stop_at_k(stage, done, total):
                calls.append(stage)
                if len(calls) == k:
                    raise Stop(stage)

            lg.set_progress(stop_at_k)
            with pytest.raises(Stop):
                lg.Graph.load(tmp_path / "g.el", device="cpu")
            # after the exception only "done" comes, so that a bar can close
            assert calls[k:] in ([], ["done"])
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)
    assert lg.Graph.load(tmp_path / "g.el", device="cpu").num_edges == g.num_edges


def test_default_progress_draws_tqdm_bars(tmp_path, capsys):
    tqdm = pytest.importorskip("tqdm")
    assert tqdm is not None
    g = lg.Graph.generate("kron", 12, device="cpu")
    g.save(tmp_path / "g.el")
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.05, 0.0)
    try:
        lg.set_progress(True)
        lg.Graph.load(tmp_path / "g.el", device="cpu")
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)
    err = capsys.readouterr().err
    assert "libgraph: read" in err and "libgraph: build" in err


def numpy_pagerank(g, alpha, iterations):
    """NetworkX's power iteration in NumPy: the iterates' last L1 change."""
    off, idx, _ = g.csr()
    n = g.num_vertices
    A = sp.csr_array((np.ones(len(idx)), idx, off), shape=(n, n))
    out = np.asarray(A.sum(axis=1)).ravel()
    dangling = out == 0
    inv = np.where(dangling, 0.0, 1.0 / np.where(dangling, 1.0, out))
    x = np.full(n, 1.0 / n)
    residual = 0.0
    for _ in range(iterations):
        last = x
        x = alpha * (A.T @ (last * inv) + last[dangling].sum() / n) + (1 - alpha) / n
        residual = np.abs(x - last).sum()
    return x, residual


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_pagerank_says_what_it_did(kron, dtype):
    x, info = lg.pagerank(kron, dtype=dtype, return_info=True, device="cpu")
    assert isinstance(info, lg.PageRankInfo) and info.converged
    want, residual = numpy_pagerank(kron, 0.85, info.iterations)
    assert info.residual < kron.num_vertices * 1e-6
    assert info.residual == pytest.approx(residual, rel=1e-9 if dtype == "float64" else 1e-3)
    np.testing.assert_allclose(x, want, rtol=1e-9 if dtype == "float64" else 1e-4)
    # not converged: the exception says the same
    with pytest.raises(lg.NotConverged) as e:
        lg.pagerank(kron, tol=0.0, max_iter=7, dtype=dtype, device="cpu")
    _, residual = numpy_pagerank(kron, 0.85, 7)
    assert e.value.iterations == 7
    assert e.value.residual == pytest.approx(residual, rel=1e-9 if dtype == "float64" else 1e-3)


def test_ctrl_c_stops_the_cli():
    """lgraph stops a long call on the first SIGINT, frees what it holds and
    exits with 130; the process gets there by itself (not killed)."""
    import select
    import subprocess

    from conftest import _lgraph_path

    exe = _lgraph_path()
    if not exe.exists():
        pytest.skip(f"lgraph not built: {exe}")
    # SIGINT as an interactive shell leaves it (not ignored, as for a background job)
    proc = subprocess.Popen([str(exe), "pagerank", "kron:14", "--tol", "0", "--max-iter",
                             "100000000", "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # the graph is built and PageRank running once the summary lines are out
        # (written at once, then flushed)
        assert select.select([proc.stdout], [], [], 60)[0], "lgraph printed nothing"
        assert proc.stdout.readline().startswith("graph kron:14:")
        assert proc.stdout.readline().startswith("generated edges")
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (proc.returncode, out, err)
    assert "lgraph: pagerank: interrupted" in err


def _same_graph(g, h):
    a, b = g.csr(), h.csr()
    assert g.directed == h.directed and g.num_vertices == h.num_vertices
    for x, y in zip(a, b):
        assert (x is None and y is None) or np.array_equal(x, y)


def _writing_during_the_build(call, arrays, junk):
    """Runs call() with a progress function that, at every step of the build
    (each reported: the watch's timing set to 0), writes junk into every one
    of arrays, as a progress function, a signal handler or another thread
    may while the library works; returns what call() returned."""
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.0, 0.0)
    seen = []

    def scribble(stage, done, total):
        seen.append(stage)
        for a, j in zip(arrays, junk):
            a[:] = j

    try:
        lg.set_progress(scribble)
        return call()
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)
        assert "build" in seen


def test_a_progress_function_cannot_change_what_was_checked():
    # the library reads copies of the caller's arrays: ids past the vertex
    # count, wild offsets and NaN weights written mid-build change nothing
    s, d = (np.asarray(a).copy() for a in lg.generate_edges("kron", 14, 16, 1, device="cpu"))
    w = np.linspace(0.5, 2.0, len(s), dtype=np.float32)
    want = lg.Graph.from_edges(s.copy(), d.copy(), w.copy(), directed=True, device="cpu")
    got = _writing_during_the_build(
        lambda: lg.Graph.from_edges(s, d, w, directed=True, device="cpu"), (s, d, w),
        (2**31 - 1, -5, np.nan))
    _same_graph(got, want)
    assert (s == 2**31 - 1).all() and np.isnan(w).all()  # the caller's arrays were written

    off, idx, wt = (a.copy() for a in want.csr())
    got = _writing_during_the_build(
        lambda: lg.Graph.from_csr(off, idx, wt, directed=True, device="cpu"), (off, idx, wt),
        (0, 2**31 - 1, np.nan))
    _same_graph(got, want)
    x = lg.pagerank(got, device="cpu")
    np.testing.assert_allclose(x, lg.pagerank(want, device="cpu"), rtol=1e-12)


def test_another_thread_writing_the_arrays_changes_nothing():
    s, d = (np.asarray(a).copy() for a in lg.generate_edges("kron", 16, 16, 2, device="cpu"))
    want = lg.Graph.from_edges(s.copy(), d.copy(), directed=True, device="cpu")
    stop = threading.Event()

    def scribble():  # numpy's assignment holds the GIL: between two of them the build runs
        while not stop.is_set():
            s[::7] = 2**31 - 1
            d[::5] = -1
            time.sleep(0)

    t = threading.Thread(target=scribble)
    got = None
    try:
        t.start()
        got = lg.Graph.from_edges(s, d, directed=True, num_vertices=want.num_vertices,
                                  device="cpu")
    except ValueError as e:  # the copy was taken after a write: refused, never wild
        assert "num_vertices" in str(e) or "< 0" in str(e)
    finally:
        stop.set()
        t.join()
    if got is not None:
        assert got.num_vertices == want.num_vertices
        lg.pagerank(got, device="cpu")


def test_ctrl_c_stops_generation_and_writing(tmp_path):
    # each stopped at a step of its own stage: blocks of edges generated,
    # 16 MB written; a stopped save leaves the old file and no temporary one
    interrupted_at_a_step(lambda: lg.Graph.generate("kron", 20, device="cpu"), "generate",
                          "generate")
    interrupted_at_a_step(lambda: lg.generate_edges("kron", 20, device="cpu"), "generate_edges",
                          "generate")
    g = lg.Graph.generate("kron", 20, device="cpu")  # 8 steps of .lgb, 13 of .el
    for name in ("k.el", "k.lgb"):
        out = tmp_path / name
        out.write_text("0 1\n")
        interrupted_at_a_step(lambda: g.save(out), "save", "write")
        assert out.read_bytes() == b"0 1\n"
        assert not [p.name for p in tmp_path.iterdir() if ".tmp." in p.name]
    # and written whole when not stopped, steps shown
    seen = []
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.0, 0.0)
    try:
        lg.set_progress(lambda s, d, t: seen.append((s, d, t)))
        g.save(tmp_path / "k.el")
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)
    writes = [d for s, d, t in seen if s == "write"]
    assert writes == [k << 24 for k in range(1, len(writes) + 1)] and len(writes) >= 2
    assert seen[-1] == ("done", 0, 0)
    assert lg.Graph.load(tmp_path / "k.el", device="cpu").num_edges == g.num_edges


@pytest.mark.parametrize("args", [["info", "kron:19"], ["convert", "kron:18", "OUT.el"],
                                  ["convert", "kron:18", "OUT.lgb"]])
def test_ctrl_c_at_random_points_of_the_cli(tmp_path, args):
    """SIGINT at random points of a generation, a build and a write: lgraph
    either had finished (exit 0, its output whole) or stops with 130 and
    leaves no output file and no temporary one."""
    import random
    import subprocess

    from conftest import _lgraph_path

    exe = _lgraph_path()
    if not exe.exists():
        pytest.skip(f"lgraph not built: {exe}")
    args = [a.replace("OUT", str(tmp_path / "out")) for a in args]
    rng = random.Random(7)
    stopped = 0
    for delay in [rng.uniform(0.0, 1.5) for _ in range(6)]:
        for p in tmp_path.iterdir():
            p.unlink()
        proc = subprocess.Popen([str(exe), *args, "--threads", "1"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            time.sleep(delay)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
        left = [p.name for p in tmp_path.iterdir()]
        if proc.returncode == 0:
            assert args[0] == "info" or left == [os.path.basename(args[2])]
        else:
            stopped += 1
            assert proc.returncode == 130, (proc.returncode, out, err)
            assert "interrupted" in err and left == [], (err, left)
    assert stopped > 0


def test_a_progress_function_cannot_call_into_libgraph():
    """A progress function runs in the middle of a libgraph call: any call
    into libgraph from it (a build, a pickle round trip, an algorithm, a
    Context) raises RuntimeError, which stops the outer call and reaches its
    caller; caught there, the outer call goes on to its graph.  Nothing
    hangs, and the function's references are all given back."""
    import pickle

    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], device="cpu")
    src, dst = lg.generate_edges("kron", 8, device="cpu")
    want = lg.Graph.from_edges(src, dst, device="cpu").csr()
    inner = {
        "from_edges": lambda: lg.Graph.from_edges([0, 1], [1, 0], device="cpu"),
        "pickle": lambda: pickle.loads(pickle.dumps(g)),
        "pagerank": lambda: lg.pagerank(g, device="cpu"),
        "Context": lambda: lg.Context("cpu"),
    }
    before = lg.get_progress()
    old = _libgraph._set_watch_timing(0.0, 0.0)
    try:
        for name, call in inner.items():
            stages = []

            def reenter(stage, done, total):
                stages.append(stage)
                if stage != "done":
                    call()

            lg.set_progress(reenter)
            refs = sys.getrefcount(reenter)
            for _ in range(20):
                stages.clear()
                with pytest.raises(RuntimeError, match="progress function .* cannot call into "
                                                       "libgraph"):
                    lg.Graph.from_edges(src, dst, device="cpu")
                assert stages == ["build", "done"], name  # its "done" too may not re-enter
            assert sys.getrefcount(reenter) == refs, name
            errors = []

            def caught(stage, done, total):
                if stage != "done":
                    try:
                        call()
                    except RuntimeError as e:
                        errors.append(e)

            lg.set_progress(caught)
            got = lg.Graph.from_edges(src, dst, device="cpu").csr()
            assert len(errors) == 11, name  # every step of the build
            for a, b in zip(got[:2], want[:2]):
                np.testing.assert_array_equal(a, b)
        lg.set_progress(False)
        assert pickle.loads(pickle.dumps(g)).num_edges == g.num_edges
    finally:
        _libgraph._set_watch_timing(*old)
        lg.set_progress(before if before is not None else False)


def test_a_signal_handler_cannot_call_into_libgraph(kron):
    """A signal handler that Python runs during a long libgraph call (here
    SIGALRM's, during PageRank) cannot call libgraph either: its
    RuntimeError stops the call, which would otherwise run for minutes."""
    calls = []

    def handler(signum, frame):
        calls.append(signum)
        lg.bfs(kron, 0, device="cpu")

    before = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(RuntimeError, match="signal handler .* cannot call into libgraph"):
            lg.pagerank(kron, tol=0.0, max_iter=10**6, device="cpu")
        assert calls == [signal.SIGALRM]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert lg.bfs(kron, 0, device="cpu")[0] == 0




# each centrality's long loop stopped by Ctrl-C (exact betweenness and
# closeness of kron:14 take seconds; the power iterations never converge at
# tol 0); after it the graph and the algorithm answer as before
CENTRALITY_LOOPS = {
    "betweenness": ("_centrality", lg.betweenness_centrality, {}),
    "closeness": ("_centrality", lg.closeness_centrality, {}),
    "harmonic": ("_centrality", lg.harmonic_centrality, {}),
    "eigenvector": ("_iterated", lg.eigenvector_centrality, {"tol": 0.0, "max_iter": 10**6}),
    "katz": ("_iterated", lg.katz_centrality, {"alpha": 0.001, "tol": 0.0, "max_iter": 10**6}),
    "hits": ("_iterated", lg.hits, {"tol": 0.0, "max_iter": 10**6}),
}


@pytest.mark.parametrize("name", list(CENTRALITY_LOOPS))
def test_ctrl_c_stops_the_centralities(kron, name):
    where, call, forever = CENTRALITY_LOOPS[name]
    small = lg.Graph.generate("kron", 8, device="cpu")
    quick = {"alpha": 0.001} if name == "katz" else {}
    # two threads as given: a count the library chooses follows the
    # machine's load, and betweenness's sums follow the thread count
    two = lg.Context("cpu", num_threads=2)
    want = call(small, device=two, **quick), lg.pagerank(kron, device="cpu")
    interrupted(lambda: call(kron, device="cpu", **forever), where)
    got = call(small, device=two, **quick), lg.pagerank(kron, device="cpu")
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
