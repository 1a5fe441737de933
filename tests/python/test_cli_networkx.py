"""The lgraph CLI's answers against NetworkX and SciPy, computed independently.

Every graph is read by NetworkX/SciPy from the same file that lgraph reads, so
the two sides share nothing but the file.
"""
import re

import numpy as np
import networkx as nx
import pytest
import scipy.io
import scipy.sparse.csgraph as csgraph

REAL_GRAPHS = ["facebook_combined.el", "oregon1_010331.el"]


def read_undirected(path):
    g = nx.Graph()
    edges = np.loadtxt(path, dtype=np.int64, comments=("#", "%"), ndmin=2)
    n = int(edges.max()) + 1 if len(edges) else 0
    g.add_nodes_from(range(n))
    g.add_edges_from(map(tuple, edges.tolist()))
    return g


def lgraph_output(lgraph, tmp_path, *args):
    out = tmp_path / "out.txt"
    lgraph(*args, "--output", out)
    return out.read_text().split("\n")[:-1]


@pytest.mark.parametrize("name", REAL_GRAPHS)
@pytest.mark.parametrize("threads", [1, 2])
def test_bfs_matches_networkx(lgraph, data_dir, tmp_path, name, threads):
    g = read_undirected(data_dir / name)
    for source in [0, 17, g.number_of_nodes() - 1]:
        got = [int(x) for x in lgraph_output(lgraph, tmp_path, "bfs", data_dir / name,
                                             "--undirected", "--source", source,
                                             "--threads", threads)]
        want = [-1] * g.number_of_nodes()
        for v, d in nx.single_source_shortest_path_length(g, source).items():
            want[v] = d
        assert got == want


@pytest.mark.parametrize("name", REAL_GRAPHS)
def test_bfs_parents_are_bfs_parents(lgraph, data_dir, tmp_path, name):
    g = read_undirected(data_dir / name)
    rows = lgraph_output(lgraph, tmp_path, "bfs", data_dir / name, "--undirected",
                         "--source", 3, "--parents")
    dist = [int(r.split()[0]) for r in rows]
    parent = [int(r.split()[1]) for r in rows]
    assert parent[3] == 3 and dist[3] == 0
    for v in range(g.number_of_nodes()):
        if dist[v] > 0:
            assert g.has_edge(parent[v], v) and dist[parent[v]] == dist[v] - 1
        elif dist[v] < 0:
            assert parent[v] == -1


@pytest.mark.parametrize("name", REAL_GRAPHS)
@pytest.mark.parametrize("alpha,tol", [(0.85, 1e-6), (0.85, 1e-10), (0.5, 1e-12)])
def test_pagerank_matches_networkx(lgraph, data_dir, tmp_path, name, alpha, tol):
    g = read_undirected(data_dir / name)
    got = np.array([float(x) for x in lgraph_output(
        lgraph, tmp_path, "pagerank", data_dir / name, "--undirected",
        "--alpha", alpha, "--tol", tol, "--max-iter", 1000)])
    ref = nx.pagerank(g, alpha=alpha, tol=tol, max_iter=1000)
    want = np.array([ref[v] for v in range(g.number_of_nodes())])
    # Same iteration, same stopping rule: only rounding separates the two.
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-13)


def test_pagerank_float_close_to_networkx(lgraph, data_dir, tmp_path):
    path = data_dir / "facebook_combined.el"
    g = read_undirected(path)
    got = np.array([float(x) for x in lgraph_output(
        lgraph, tmp_path, "pagerank", path, "--undirected", "--float", "--tol", 1e-8)])
    ref = nx.pagerank(g, tol=1e-8)
    want = np.array([ref[v] for v in range(g.number_of_nodes())])
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-8)


def test_pagerank_directed_with_dangling_vertices(lgraph, tmp_path):
    rng = np.random.default_rng(7)
    n = 300
    edges = rng.integers(0, n, size=(1200, 2))
    edges = edges[edges[:, 0] < 250]  # vertices 250.. have no out-edges: dangling
    path = tmp_path / "d.el"
    np.savetxt(path, edges, fmt="%d")
    n_file = int(edges.max()) + 1
    g = nx.MultiDiGraph()
    g.add_nodes_from(range(n_file))
    g.add_edges_from(map(tuple, edges.tolist()))
    got = np.array([float(x) for x in lgraph_output(lgraph, tmp_path, "pagerank", path,
                                                    "--directed", "--tol", 1e-12,
                                                    "--max-iter", 500)])
    ref = nx.pagerank(g, tol=1e-12, max_iter=500)
    np.testing.assert_allclose(got, [ref[v] for v in range(n_file)], rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("name", REAL_GRAPHS)
def test_components_match_networkx(lgraph, data_dir, tmp_path, name):
    g = read_undirected(data_dir / name)
    got = [int(x) for x in lgraph_output(lgraph, tmp_path, "cc", data_dir / name,
                                         "--undirected")]
    want = [0] * g.number_of_nodes()
    for comp in nx.connected_components(g):
        low = min(comp)
        for v in comp:
            want[v] = low
    assert got == want


def test_kronecker_graph_against_scipy(lgraph, tmp_path):
    """A generated graph written as Matrix Market, checked with SciPy's csgraph."""
    mtx = tmp_path / "k.mtx"
    lgraph("generate", "kron:12", mtx, "--seed", 5)
    a = scipy.io.mmread(mtx).tocsr()
    assert (a != a.T).nnz == 0  # undirected, stored symmetric
    assert a.diagonal().sum() == 0  # self-loops dropped
    ncomp, labels = csgraph.connected_components(a, directed=False)
    got = np.array([int(x) for x in lgraph_output(lgraph, tmp_path, "cc", mtx)])
    # canonical labels: the smallest id of each SciPy component
    low = np.full(ncomp, a.shape[0])
    np.minimum.at(low, labels, np.arange(a.shape[0]))
    np.testing.assert_array_equal(got, low[labels])
    dist = csgraph.shortest_path(a, unweighted=True, indices=5)
    want = np.where(np.isinf(dist), -1, dist).astype(int)
    got = np.array([int(x) for x in lgraph_output(lgraph, tmp_path, "bfs", mtx, "--source", 5)])
    np.testing.assert_array_equal(got, want)


def test_weighted_directed_pagerank_from_mtx(lgraph, tmp_path):
    rng = np.random.default_rng(11)
    n = 200
    a = scipy.sparse.random(n, n, density=0.03, random_state=rng, format="coo")
    # libgraph's weights are float: give both sides the same, float-exact weights
    a.data = rng.uniform(0.1, 5.0, size=a.nnz).astype(np.float32).astype(np.float64)
    path = tmp_path / "w.mtx"
    scipy.io.mmwrite(path, a)
    g = nx.from_scipy_sparse_array(a.tocsr(), create_using=nx.DiGraph)
    ref = nx.pagerank(g, tol=1e-12, max_iter=500)
    got = np.array([float(x) for x in lgraph_output(lgraph, tmp_path, "pagerank", path,
                                                    "--directed", "--tol", 1e-12,
                                                    "--max-iter", 500)])
    np.testing.assert_allclose(got, [ref[v] for v in range(n)], rtol=1e-9, atol=1e-14)
    ref_u = nx.pagerank(g, tol=1e-12, max_iter=500, weight=None)
    got_u = np.array([float(x) for x in lgraph_output(lgraph, tmp_path, "pagerank", path,
                                                      "--tol", 1e-12, "--max-iter", 500,
                                                      "--unweighted")])
    np.testing.assert_allclose(got_u, [ref_u[v] for v in range(n)], rtol=1e-9, atol=1e-14)


def test_pagerank_not_converged_exit_code(lgraph, data_dir):
    proc = lgraph("pagerank", data_dir / "facebook_combined.el", "--undirected",
                  "--max-iter", 2, "--tol", 1e-15, check=False)
    assert proc.returncode == 3
    assert "NOT CONVERGED" in proc.stdout
    assert "no convergence in 2 iterations" in proc.stderr


def test_pagerank_top_lists_k_vertices_and_zero_lists_none(lgraph, data_dir):
    """--top K prints the K best vertices; --top 0 none, and the run goes on."""
    path = data_dir / "facebook_combined.el"
    ranked = re.compile(r"^\s+\d+\. vertex ", re.M)
    assert len(ranked.findall(lgraph("pagerank", path, "--undirected", "--top", 3).stdout)) == 3
    proc = lgraph("pagerank", path, "--undirected", "--top", 0, "--json")
    assert ranked.findall(proc.stdout) == []
    assert '"converged": true' in proc.stdout.splitlines()[-1]


def test_json_reports_graph_bytes_and_peak_memory(lgraph, data_dir):
    """--json: graph_bytes is the CSR's arrays (an undirected graph's in-edges
    are its CSR), and the process's peak resident memory is at least that."""
    import json
    line = lgraph("cc", data_dir / "facebook_combined.el", "--undirected", "--json").stdout
    j = json.loads(line.splitlines()[-1])
    n, m = j["vertices"], j["arcs"]
    assert j["graph_bytes"] >= (n + 1) * 8 + m * 4
    assert j["graph_bytes"] < (n + 1) * 8 + m * 4 + 4096
    assert j["peak_rss_bytes"] >= j["graph_bytes"]


def test_convert_round_trip(lgraph, data_dir, tmp_path):
    src = data_dir / "oregon1_010331.el"
    for ext in ["lgb", "mtx", "el"]:
        out = tmp_path / f"o.{ext}"
        lgraph("convert", src, out, "--undirected")
        back = lgraph_output(lgraph, tmp_path, "cc", out, *(["--undirected"] if ext == "el" else []))
        want = lgraph_output(lgraph, tmp_path, "cc", src, "--undirected")
        assert back == want, ext


@pytest.mark.parametrize("args,code,message", [
    (["bfs", "nonexistent.el"], 2, "nonexistent.el"),
    (["bfs", "kron:99"], 2, "bad generator spec"),
    (["frobnicate", "x.el"], 2, "unknown command"),
    (["bfs", "kron:8", "--source", "100000"], 2, "source 100000"),
    (["bfs", "kron:8", "--threads", "-1"], 2, "bad value"),
    (["pagerank", "kron:8", "--alpha", "1.5"], 2, "alpha"),
    (["cc", "kron:8", "--device", "gpu"], 1, "GPU"),
    # device strings go through lg_context_options_parse: gpu:N is a form,
    # gpu:x is not; no machine here has a GPU 7
    (["cc", "kron:8", "--device", "gpu:7"], 1, "GPU"),
    (["cc", "kron:8", "--device", "gpu:x"], 2, "bad value 'gpu:x' for --device"),
    (["cc", "kron:8", "--device", "GPU"], 2, "bad value 'GPU' for --device"),
])
def test_cli_errors(lgraph, args, code, message):
    proc = lgraph(*args, check=False)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr


def test_cli_device_cpu_runs_on_the_cpu(lgraph):
    proc = lgraph("cc", "kron:8", "--device", "cpu")
    assert "on cpu (" in proc.stdout


def test_cli_help(lgraph):
    assert "Commands:" in lgraph("--help").stdout
    for cmd in ["bfs", "pagerank", "cc", "info", "convert"]:
        assert f"lgraph {cmd}" in lgraph(cmd, "--help").stdout
