"""Named nodes: Graph.from_pandas and from_edges with any hashable keys
(strings, tuples, ints beyond int32), against NetworkX's graph of the same
DataFrame; g.names, g.index_of, lookups by name in every function that takes
a vertex, results keyed by name (to_pandas, to_dict), and the errors."""
import os
import sys

import numpy as np
import pytest

lg = pytest.importorskip("libgraph")
pd = pytest.importorskip("pandas")
nx = pytest.importorskip("networkx")

CPU = "cpu"


def _frame(rng, n, m, key):
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    return pd.DataFrame({"from": [key(i) for i in src], "to": [key(i) for i in dst],
                         "w": rng.uniform(0.5, 3.0, m)})


KEYS = {
    "str": lambda i: f"user{i}",
    "tuple": lambda i: (int(i) % 5, f"t{i}"),
    "big int": lambda i: int(i) * 10**12 + 7,
    "mixed": lambda i: f"s{i}" if i % 2 else int(i),
}


@pytest.mark.parametrize("key", KEYS, ids=list(KEYS))
@pytest.mark.parametrize("directed", [False, True])
def test_from_pandas_is_networkx_graph(key, directed):
    rng = np.random.default_rng(len(key) + directed)
    df = _frame(rng, 60, 150, KEYS[key])
    df = df.drop_duplicates(["from", "to"])  # NetworkX keeps one edge a pair
    if not directed:  # and one a pair either way
        pair = [frozenset((a, b)) for a, b in zip(df["from"], df["to"])]
        df = df[~pd.Series(pair, index=df.index).duplicated()]
    G = nx.from_pandas_edgelist(df, "from", "to", edge_attr="w",
                                create_using=nx.DiGraph if directed else nx.Graph)
    names = True if key == "big int" else None  # ints are ids unless said
    g = lg.Graph.from_pandas(df, "from", "to", "w", directed=directed, names=names)
    assert g.names == list(G.nodes)  # NetworkX's node order: first appearance
    assert g.directed == directed and g.weighted
    want = nx.to_scipy_sparse_array(G, nodelist=g.names, weight="w", format="csr")
    assert g.num_edges == want.nnz
    assert abs(g.to_scipy() - want).max() < 1e-6
    # functions by name, results by name
    pr = g.to_dict(lg.pagerank(g, tol=1e-10, device=CPU))
    want_pr = nx.pagerank(G, weight="w", tol=1e-10)
    assert pr.keys() == want_pr.keys()
    assert max(abs(pr[k] - want_pr[k]) for k in pr) < 1e-5
    source = g.names[3]
    dist = g.to_pandas(lg.bfs(g, source, device=CPU), name="hops")
    want_d = nx.single_source_shortest_path_length(G, source)
    assert dist.name == "hops" and list(dist.index) == g.names
    assert {k: v for k, v in dist.items() if v >= 0} == want_d
    if not directed:
        labels = g.to_dict(lg.connected_components(g, device=CPU))
        comps = {}
        for k, label in labels.items():
            comps.setdefault(label, set()).add(k)
        assert set(map(frozenset, comps.values())) == set(
            map(frozenset, nx.connected_components(G)))


def test_from_edges_names_and_ids():
    # lists of strings and tuples are names; lists of ints stay ids
    g = lg.Graph.from_edges(["a", "b", "c"], ["b", "c", "a"])
    assert g.names == ["a", "b", "c"] and g.num_edges == 6
    g = lg.Graph.from_edges([(1, "x"), (2, "y")], [(2, "y"), (1, "x")], directed=True)
    assert g.names == [(1, "x"), (2, "y")] and g.csr()[1].tolist() == [1, 0]
    g = lg.Graph.from_edges([0, 1], [1, 2])
    assert g.names is None and g.num_vertices == 3
    # ints beyond int32: ids refuse them, names take them
    big = np.array([2**40, 2**40 + 1], dtype=np.int64)
    with pytest.raises(ValueError):
        lg.Graph.from_edges(big, big[::-1])
    g = lg.Graph.from_edges(big, big[::-1], names=True)
    assert g.names == [2**40, 2**40 + 1]
    # ints as names when asked: numbered by first appearance, not by value
    g = lg.Graph.from_edges([5, 3], [3, 9], names=True)
    assert g.names == [5, 3, 9] and g.index_of([9, 5]).tolist() == [2, 0]
    # floats are no ids and no names unless asked
    with pytest.raises(TypeError):
        lg.Graph.from_edges([0.5, 1.5], [1.5, 0.5])


def test_name_errors():
    with pytest.raises(ValueError, match="missing value"):
        lg.Graph.from_edges(["a", None], ["b", "c"])
    with pytest.raises(ValueError, match="num_vertices"):
        lg.Graph.from_edges(["a"], ["b"], num_vertices=5)
    with pytest.raises(ValueError, match="length"):
        lg.Graph.from_edges(["a", "b"], ["b"])
    with pytest.raises(KeyError, match="column"):
        lg.Graph.from_pandas(pd.DataFrame({"a": [1]}), "a", "b")
    g = lg.Graph.from_edges(["a", "b"], ["b", "c"])
    with pytest.raises(KeyError, match="'zz'"):
        g.index_of(["a", "zz"])
    with pytest.raises(KeyError):
        lg.bfs(g, "zz", device=CPU)
    with pytest.raises(ValueError, match="not a vertex"):
        lg.pagerank(g, personalization={"zz": 1.0}, device=CPU)


DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def test_one_rule_for_names_in_c_and_python(tmp_path):
    # a .lgb whose names repeat: refused naming the file, both vertices and
    # the name; names=False loads the graph without them
    path = os.path.join(DATA, "names_twice.lgb")
    with pytest.raises(lg.FileFormatError,
                       match=r"names_twice\.lgb: .*vertices 1 and 3 have the same name 'b'"):
        lg.Graph.load(path)
    g = lg.Graph.load(path, names=False, device=CPU)
    assert g.names is None and g.directed and g.csr()[1].tolist() == [1, 2, 3]
    assert lg.bfs(g, 0, device=CPU).tolist() == [0, 1, 2, 3]
    # the setter says the same, and a graph with distinct names round-trips
    with pytest.raises(ValueError, match=r"vertices 1 and 3 have the same name 'b'"):
        g.names = ["a", "b", "c", "b"]
    g.names = ["a", "b", "c", "d"]
    g.save(tmp_path / "ok.lgb")
    assert lg.Graph.load(tmp_path / "ok.lgb").names == ["a", "b", "c", "d"]


def test_setting_names_enables_lookups():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    assert g.to_dict(np.arange(4)) == {0: 0, 1: 1, 2: 2, 3: 3}
    assert g.index_of([3, 1]).tolist() == [3, 1] and g.index_of(2) == 2
    with pytest.raises(KeyError):
        g.index_of([7])
    g.names = ["w", "x", "y", "z"]
    assert g.nodes == g.names and "named nodes" in repr(g)
    assert lg.bfs(g, "z", device=CPU).tolist() == [3, 2, 1, 0]
    assert g.index_of(pd.Series(["y", "w"])).tolist() == [2, 0]
    p = g.to_dict(lg.pagerank(g, personalization={"w": 1.0}, device=CPU))
    want = nx.pagerank(nx.path_graph(["w", "x", "y", "z"]), personalization={"w": 1.0})
    assert max(abs(p[k] - want[k]) for k in want) < 1e-6
    for bad, err in ((["a", "b"], ValueError), (["a", "a", "b", "c"], ValueError),
                     ([["a"], "b", "c", "d"], TypeError)):
        with pytest.raises(err):
            g.names = bad
    assert g.names == ["w", "x", "y", "z"]  # a failed assignment changes nothing
    g.names = None
    assert g.names is None and lg.bfs(g, 0, device=CPU).tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="entries"):
        g.to_dict([1, 2])


@pytest.mark.parametrize("missing", [None, float("nan"), np.float32("nan"), np.datetime64("NaT"),
                                     pd.NaT, pd.NA])
def test_names_setter_refuses_missing_values(missing, monkeypatch):
    """The rule and message of from_edges: what pandas.isna finds names no
    node; with pandas not loaded, None and values unequal to themselves."""
    g = lg.Graph.from_edges([0], [1])
    with pytest.raises(ValueError, match=r"names\[1\]: a missing value"):
        g.names = ["a", missing]
    with pytest.raises(ValueError, match="missing value"):
        lg.Graph.from_edges(["a"], [missing], names=True)
    if missing is not pd.NA:  # pandas.NA exists only with pandas loaded
        monkeypatch.setitem(sys.modules, "pandas", None)
        with pytest.raises(ValueError, match=r"names\[0\]: a missing value"):
            g.names = [missing, "b"]
    assert g.names is None
    g.names = ["nan", 0]  # a string or a zero is a name
    assert g.index_of(["nan"]).tolist() == [0]


def test_from_networkx_refuses_a_nan_node():
    """NetworkX takes NaN as a node (a DataFrame's missing value becomes one);
    a Graph's names hold no missing value, so that its pickle loads."""
    G = nx.Graph([("a", "b")])
    G.add_edge("b", float("nan"))
    with pytest.raises(ValueError, match="G: node nan: a missing value"):
        lg.Graph.from_networkx(G)


FORMATS = {"big-endian int": np.array([0, 1], ">i4"), "complex": np.array([0j, 1j]),
           "float16": np.array([0, 1], np.float16), "objects": np.array(["a", (1, 2)], object),
           "bytes": np.array([b"a", b"b"], "S1"), "native int": np.array([0, 1], np.int32)}


@pytest.mark.parametrize("fmt", FORMATS)
def test_memoryviews_read_as_their_numpy_arrays(fmt):
    """A memoryview of any format numpy reads gives what its numpy array
    gives, where Python reads values one by one (memoryview.tolist() unpacks
    only native struct formats)."""
    a = FORMATS[fmt]
    other = np.array(["a", "b"], object) if a.dtype.kind != "O" else np.array(["a", "b"])

    def both(fn):
        try:
            want = fn(a)
        except (TypeError, ValueError, KeyError) as e:  # then the memoryview fails alike
            with pytest.raises(type(e)):
                fn(memoryview(a))
            return
        got = fn(memoryview(a))
        assert got == want if not hasattr(got, "tolist") else got.tolist() == want.tolist()

    both(lambda x: lg.Graph.from_edges(x, other, names=True).names)
    named = lg.Graph.from_edges([0], [1])
    both(lambda x: setattr(named, "names", x) or named.to_pandas([0, 1]).index.tolist())
    both(lambda x: named.index_of(x))
    both(lambda x: lg.bfs(named, x, device=CPU))
    plain = lg.Graph.from_edges([0], [1])
    both(plain.to_dict)
    both(lambda x: plain.to_pandas(x).tolist())
    both(plain.index_of)


def test_memoryviews_of_strings_are_names():
    """names=None reads a memoryview as its numpy array: bytes are names."""
    s, d = np.array([b"a", b"b"], "S1"), np.array([b"b", b"c"], "S1")
    assert lg.Graph.from_edges(memoryview(s), memoryview(d)).names == [b"a", b"b", b"c"]
    assert lg.Graph.from_edges(memoryview(np.array([0, 1], ">i4")), [1, 2]).names is None
