"""The Python module on a GPU: the same answers as the CPU, and the call says
it ran on the GPU.  Skipped (with the reason) where no GPU context opens,
e.g. on CI; tests/gpu/run_on_device.sh runs it on an NVIDIA machine."""
import networkx as nx
import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

from graph_cases import same_graph  # noqa: E402


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


def to_networkx(g):
    off, idx, _ = (np.asarray(a) if a is not None else None for a in g.csr())
    G = nx.DiGraph() if g.directed else nx.Graph()
    G.add_nodes_from(range(g.num_vertices))
    G.add_edges_from((u, int(v)) for u in range(g.num_vertices) for v in idx[off[u]:off[u + 1]])
    return G


def _check_parents(G, d, p, sources):
    """Each reached non-source vertex's parent is an in-neighbour one level up."""
    for v in range(len(d)):
        if d[v] < 0:
            assert p[v] == -1
        elif v in sources:
            assert d[v] == 0 and p[v] == v
        else:
            assert d[p[v]] == d[v] - 1 and G.has_edge(int(p[v]), v)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("alpha", [15, 0, 1])
def test_bfs_matches_cpu_and_networkx(gpu, seed, directed, alpha):
    g = random_graph(10 + seed, 500 + 100 * seed, 1500 + 700 * seed, directed, False)
    G = to_networkx(g)
    src = seed * 7
    want = nx.single_source_shortest_path_length(G, src)
    d, p = lg.bfs(g, src, parents=True, direction_alpha=alpha, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_array_equal(d, [want.get(v, -1) for v in range(len(d))])
    np.testing.assert_array_equal(d, lg.bfs(g, src, device="cpu"))
    _check_parents(G, d, p, {src})
    d2 = lg.bfs(g, src, max_depth=2, direction_alpha=alpha, device=gpu)
    np.testing.assert_array_equal(d2, np.where(d <= 2, d, -1))
    multi = [src, src, 3, len(d) - 1]
    dm, pm = lg.bfs(g, multi, parents=True, direction_alpha=alpha, device=gpu)
    np.testing.assert_array_equal(dm, lg.bfs(g, multi, device="cpu"))
    _check_parents(G, dm, pm, set(multi))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [False, True])
def test_components_match_cpu_and_networkx(gpu, seed, directed):
    g = random_graph(20 + seed, 3000 + 500 * seed, 2500 + 400 * seed, directed, False)
    labels = lg.connected_components(g, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_array_equal(labels, lg.connected_components(g, device="cpu"))
    G = to_networkx(g)
    comps = nx.weakly_connected_components(G) if directed else nx.connected_components(G)
    want = np.empty(len(labels), dtype=labels.dtype)
    count = 0
    for c in comps:
        want[list(c)] = min(c)
        count += 1
    np.testing.assert_array_equal(labels, want)
    assert lg.number_connected_components(g, device=gpu) == count


def test_auto_moves_a_graph_to_the_gpu_once_its_cpu_calls_cost_the_upload(gpu):
    g = random_graph(30, 3000, 20000, False, False)
    want = lg.bfs(g, 0, device="cpu")
    auto = lg.Context("auto")
    d = lg.bfs(g, 0, device=auto)  # a small graph: the CPU first
    assert lg.last_backend() == "cpu" and "not on the GPU" in lg.last_backend_reason()
    np.testing.assert_array_equal(d, want)
    lg.bfs(g, 0, device=gpu)  # now on the device
    d = lg.bfs(g, 0, device=auto)
    assert lg.last_backend() == "gpu" and lg.last_backend_reason() == "the graph is on the GPU"
    np.testing.assert_array_equal(d, want)


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


# ---- GPU arrays in and out (CuPy, PyTorch; DLPack-only producers) ----------


class DLPackOnly:
    """A GPU array seen only through DLPack (as JAX's arrays are)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_cupy_and_torch_arrays_in_and_out(gpu, monkeypatch):
    cp = pytest.importorskip("cupy")
    from libgraph import _gpu_arrays

    copies = []  # the host round trips: lg_context_copy through _gpu_context
    real = _gpu_arrays._gpu_context
    monkeypatch.setattr(_gpu_arrays, "_gpu_context",
                        lambda device: copies.append(device) or real(device))
    rng = np.random.default_rng(3)
    n, m = 500, 4000
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.uniform(0.5, 2.0, m).astype(np.float32)
    want = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=True)
    for make in (cp.asarray, lambda a: DLPackOnly(cp.asarray(a))):
        g = lg.Graph.from_edges(make(src), make(dst), make(w), num_vertices=n, directed=True)
        for a, b in zip(g.csr(), want.csr()):
            np.testing.assert_array_equal(a, b)
    pers = rng.uniform(0, 1, n)
    cpu = lg.pagerank(want, personalization=pers, tol=1e-10, device="cpu")
    # results written by the GPU kernels straight into GPU arrays: no copy
    out = cp.zeros(n, dtype=cp.float64)
    copies.clear()
    got = lg.pagerank(want, personalization=pers, tol=1e-10, device=gpu, out=out)
    assert got is out and lg.last_backend() == "gpu" and copies == []
    np.testing.assert_allclose(cp.asnumpy(out), cpu, rtol=1e-9, atol=1e-12)
    out32 = cp.zeros(n, dtype=cp.float32)
    assert lg.pagerank(want, dtype="float32", device=gpu, out=out32) is out32
    np.testing.assert_allclose(cp.asnumpy(out32), lg.pagerank(want, dtype="float32", device="cpu"),
                               rtol=1e-4)
    labels = cp.full(n, -7, dtype=cp.int32)
    assert lg.connected_components(want, device=gpu, out=labels) is labels and copies == []
    np.testing.assert_array_equal(cp.asnumpy(labels), lg.connected_components(want, device="cpu"))
    torch = pytest.importorskip("torch")
    dist = torch.full((n,), -7, dtype=torch.int32, device="cuda")
    par = torch.full((n,), -7, dtype=torch.int32, device="cuda")
    assert lg.bfs(want, 3, device=gpu, out=dist) is dist and copies == []
    np.testing.assert_array_equal(dist.cpu().numpy(), lg.bfs(want, 3, device="cpu"))
    d, p = lg.bfs(want, 3, parents=True, device=gpu, out=dist, parents_out=par)
    assert d is dist and p is par and copies == [] and int(par[3]) == 3
    # a GPU input goes to the host once; a result computed on the CPU is copied in
    sources = torch.tensor([0, 5], dtype=torch.int32, device="cuda")
    assert lg.bfs(want, sources, device="cpu", out=dist) is dist and len(copies) == 2
    np.testing.assert_array_equal(dist.cpu().numpy(), lg.bfs(want, [0, 5], device="cpu"))
    # a wrong out= is refused before the call, without writing it
    with pytest.raises(ValueError, match="500 elements of int32"):
        lg.bfs(want, 0, device=gpu, out=cp.zeros(n, dtype=cp.float32))


def test_ctrl_c_stops_pagerank_on_the_gpu(gpu):
    from test_module_progress import interrupted

    g = lg.Graph.generate("kron", 16)
    want = lg.pagerank(g, device=gpu)
    interrupted(lambda: lg.pagerank(g, tol=0.0, max_iter=10**7, device=gpu), "pagerank")
    np.testing.assert_allclose(lg.pagerank(g, device=gpu), want, rtol=1e-12)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("duplicates", ["keep", "sum", "min", "max", "first", "last"])
def test_a_graph_built_on_the_gpu_from_gpu_arrays(gpu, directed, weighted, duplicates):
    """Edges in GPU memory build on the GPU (lg_graph_from_device_edges): the
    host builder's graph to the arc, its device copy made there (an "auto"
    context's first call finds the graph on the GPU: no upload)."""
    cp = pytest.importorskip("cupy")
    rng = np.random.default_rng(11)
    n, m = 300, 3000
    src = rng.integers(0, n - 5, m).astype(np.int32)  # the last ids isolated
    dst = rng.integers(0, n - 5, m).astype(np.int32)
    src[:50], dst[:50] = src[50:100], dst[50:100]  # repeats, for the policies
    src[100:110] = dst[100:110]  # self-loops
    w = rng.choice(np.float32([0.5, 1.0, 2.0, 3.5]), m) if weighted else None
    for symmetrize, drop in ((False, False), (True, True)):
        kw = dict(directed=directed, symmetrize=symmetrize, drop_self_loops=drop,
                  duplicates=duplicates)
        for n_arg in (n, None):
            want = lg.Graph.from_edges(src, dst, w, num_vertices=n_arg, device="cpu", **kw)
            got = lg.Graph.from_edges(cp.asarray(src), cp.asarray(dst),
                                      None if w is None else cp.asarray(w), num_vertices=n_arg,
                                      device=gpu, **kw)
            same_graph(got, want)
    auto = lg.Context("auto")
    g = lg.Graph.from_edges(cp.asarray(src), cp.asarray(dst), directed=directed, device=auto)
    x = lg.pagerank(g, device=auto)
    assert lg.last_backend() == "gpu" and lg.last_backend_reason() == "the graph is on the GPU"
    np.testing.assert_allclose(x, lg.pagerank(g, device="cpu"), rtol=1e-9, atol=1e-13)


def test_bad_gpu_edges_get_the_host_builders_messages(gpu):
    cp = pytest.importorskip("cupy")
    src, dst = np.array([0, 1, 2, 7], np.int32), np.array([1, 2, 0, 1], np.int32)
    for w in (None, np.float32([1, 2, -3, 4])):
        with pytest.raises(ValueError) as host:
            lg.Graph.from_edges(src, dst, w, num_vertices=5, device="cpu")
        with pytest.raises(ValueError) as dev:
            lg.Graph.from_edges(cp.asarray(src), cp.asarray(dst),
                                None if w is None else cp.asarray(w), num_vertices=5, device=gpu)
        assert str(dev.value).split(": ", 1)[1] == str(host.value).split(": ", 1)[1]
    empty = lg.Graph.from_edges(cp.zeros(0, cp.int32), cp.zeros(0, cp.int32), device=gpu)
    assert empty.num_vertices == 0 and empty.num_edges == 0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_centralities_match_networkx(gpu, seed, directed, weighted):
    """Betweenness (vertex and edge), closeness and harmonic centrality on
    the GPU against NetworkX on a random graph (weights of a few distinct
    values when weighted, so that paths tie), and unweighted closeness equal
    to the CPU's to the bit."""
    G = nx.gnm_random_graph(300 + 50 * seed, 900 + 100 * seed, seed=40 + seed, directed=directed)
    rng = np.random.default_rng(seed)
    weight = "weight" if weighted else None
    if weighted:
        for u, v in G.edges():
            G[u][v]["weight"] = float(rng.integers(1, 5)) / 2.0

    g = lg.Graph.from_networkx(G, weight=weight)  # vertex i is node i

    def check(got, want):
        assert lg.last_backend() == "gpu"
        np.testing.assert_allclose(got, [want[v] for v in G], rtol=1e-12, atol=1e-14)

    check(lg.betweenness_centrality(g, weight=weight, device=gpu),
          nx.betweenness_centrality(G, weight=weight))
    got = lg.closeness_centrality(g, distance=weight, device=gpu)
    check(got, nx.closeness_centrality(G, distance=weight))
    if not weighted:
        np.testing.assert_array_equal(got, lg.closeness_centrality(g, device="cpu"))
    check(lg.harmonic_centrality(g, distance=weight, device=gpu),
          nx.harmonic_centrality(G, distance=weight))
    want = nx.edge_betweenness_centrality(G, weight=weight)
    got = nx.edge_betweenness_centrality(G, weight=weight, backend="libgraph", device="gpu")
    assert lg.last_backend() == "gpu"
    assert list(got) == list(want)
    np.testing.assert_allclose(list(got.values()), list(want.values()), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_power_iterations_match_cpu(gpu, seed, directed, dtype):
    """Eigenvector, Katz and HITS on the GPU in both precisions: the
    CPU's iterations (within one: the sums run in another order, and the
    change test may fall either side once), their values, where the count
    is the same, within a relative 1e-9 (double) or 1e-5 (float) of the
    largest entry.  HITS's tol is absolute: in float n * 1e-6, above the
    rounding noise of its L1 change (n * 6e-8 of the entries)."""
    n = 2000
    g = random_graph(70 + seed, n, 12000, directed, weighted=True)
    bound = 1e-9 if dtype == "float64" else 1e-5
    hits_tol = 1e-5 if dtype == "float64" else n * 1e-6
    same = 0
    for name, kw, outs in (("eigenvector_centrality", {}, ["centrality"]),
                           ("katz_centrality", {"alpha": 0.02}, ["centrality"]),
                           ("hits", {"tol": hits_tol}, ["hubs", "authorities"])):
        args = dict(kw, use_weights=True, max_iter=3000, precision=dtype)
        want = lg.run(name, g, **args, device="cpu")
        got = lg.run(name, g, **args, device=gpu)
        assert lg.last_backend() == "gpu"
        assert abs(got["iterations"] - want["iterations"]) <= 1, name
        for k in outs:
            assert got[k].dtype == np.dtype(dtype)
        if got["iterations"] != want["iterations"]:
            continue
        same += 1
        for k in outs:
            scale = np.abs(want[k]).max()
            assert np.abs(got[k] - want[k]).max() <= bound * scale, (name, k)
    assert same >= 2


@pytest.mark.parametrize("seed", range(3))
def test_triangles_and_clustering_match_cpu(gpu, seed):
    """Triangles and clustering on the GPU: the CPU's counts and
    coefficients exactly (integers, and the same arithmetic on them), and
    NetworkX's."""
    G = nx.gnm_random_graph(3000, 30000 + 5000 * seed, seed=90 + seed)
    G.add_edges_from((v, v) for v in range(0, 3000, 97))  # self-loops: ignored
    g = lg.Graph.from_networkx(G)
    t = lg.triangles(g, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_array_equal(t, lg.triangles(g, device="cpu"))
    assert dict(zip(G, t.tolist())) == nx.triangles(G)
    c = lg.clustering(g, device=gpu)
    assert lg.last_backend() == "gpu"
    np.testing.assert_array_equal(c, lg.clustering(g, device="cpu"))
    assert lg.transitivity(g, device=gpu) == nx.transitivity(G)
    assert lg.average_clustering(g, device=gpu) == nx.average_clustering(G)
