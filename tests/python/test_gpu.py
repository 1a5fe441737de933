"""The Python module on a GPU: the same answers as the CPU, and the call says
it ran on the GPU.  Skipped (with the reason) where no GPU context opens,
e.g. on CI; tests/gpu/run_on_device.sh runs it on an NVIDIA machine."""
import networkx as nx
import numpy as np
import pytest

lg = pytest.importorskip("libgraph")


@pytest.fixture(scope="module")
def gpu():
    try:
        return lg.Context("gpu")
    except lg.DeviceError as e:
        pytest.skip(f"no GPU context: {e}")


def random_graph(seed, n, m, directed, weighted):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.uniform(0.1, 2.0, m).astype(np.float32) if weighted else None
    return lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_pagerank_matches_cpu(gpu, seed, directed, weighted):
    g = random_graph(seed, 300 + 50 * seed, 2000 + 300 * seed, directed, weighted)
    cpu = lg.pagerank(g, tol=1e-10, device="cpu")
    assert lg.last_backend() == "cpu"
    x = lg.pagerank(g, tol=1e-10, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_allclose(x, cpu, rtol=1e-9, atol=1e-12)
    # float: against the CPU's float run to the same (networkx default)
    # tolerance; the stopping rule, not the precision, bounds the difference
    # to a tight reference
    cpu_f = lg.pagerank(g, dtype="float32", device="cpu")
    xf = lg.pagerank(g, dtype="float32", device=gpu)
    assert xf.dtype == np.float32 and lg.last_backend() == "gpu"
    np.testing.assert_allclose(xf, cpu_f, rtol=1e-4, atol=1e-7)


def test_pagerank_personalized_against_networkx(gpu):
    G = nx.gnp_random_graph(200, 0.04, seed=3, directed=True)
    h = lg.Graph.from_networkx(G)
    pers = {v: float(v % 7) for v in G}
    ref = nx.pagerank(G, personalization=pers, tol=1e-10)
    x = lg.pagerank(h, personalization=pers, tol=1e-10, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_allclose(x, [ref[v] for v in h.nodes], rtol=1e-8, atol=1e-12)


def test_not_converged_carries_scores_from_the_gpu(gpu):
    g = random_graph(9, 500, 4000, True, False)
    with pytest.raises(lg.NotConverged) as e:
        lg.pagerank(g, tol=0, max_iter=3, device=gpu)
    assert e.value.iterations == 3 and len(e.value.scores) == 500


def test_auto_runs_bfs_and_cc_on_the_cpu_until_they_have_gpu_kernels(gpu):
    g = random_graph(4, 400, 1500, False, False)
    auto = lg.Context("auto")
    d = lg.bfs(g, 0, device=auto)
    assert lg.last_backend() == "cpu"
    np.testing.assert_array_equal(d, lg.bfs(g, 0, device="cpu"))
    with pytest.raises(lg.UnsupportedError):
        lg.bfs(g, 0, device=gpu)


def test_threads_share_one_graph_on_the_gpu(gpu):
    import threading
    g = random_graph(5, 2000, 20000, False, True)
    want = lg.pagerank(g, tol=1e-10, device="cpu")
    errors = []

    def work():
        try:
            for _ in range(5):
                np.testing.assert_allclose(lg.pagerank(g, tol=1e-10, device=gpu), want,
                                           rtol=1e-9, atol=1e-12)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
