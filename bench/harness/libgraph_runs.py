"""libgraph's side of a bench/run: bench_bfs's BFS timings from random
sources, `lgraph pagerank` (float64, float32, fixed iterations, converged)
and `lgraph cc` with --json, each process's JSON line with its peak RSS and
interference, and the reference answers the anchors are checked against."""

import json
import os
import shlex

from harness.common import ROOT
from harness.procs import RUN_STATS, run_cmd, take_interference


# -------------------------------------------------------------- libgraph --

def lgraph_json(stdout):
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in the output")


def run_lgraph(lgraph, command, path, args, threads, timeout):
    """`lgraph COMMAND PATH ... --json`'s JSON line (see run_json)."""
    return run_json([lgraph, command, path, "--undirected", "--threads", str(threads), "--json"] + args,
                    timeout)


def run_bench_bfs(exe, path, k, seed, output, threads, timeout):
    """bench_bfs's K timed searches from random sources of the largest
    component, with the distances of the last one in output (see run_json)."""
    return run_json([exe, path, str(k), "--undirected", "--threads", str(threads), "--seed", str(seed),
                     "--output", output], timeout)


def run_json(argv, timeout):
    """Runs lgraph or bench_bfs; returns the object of the last JSON line it
    printed, with the process's peak RSS (peak_rss_mb), the cores others kept
    busy meanwhile (others_cores) and the command line (argv) added."""
    RUN_STATS.clear()
    rc, out, err, rss, killed = run_cmd(argv, timeout=timeout)
    others = take_interference()
    if killed:
        raise RuntimeError(f"timed out after {timeout} s: {' '.join(argv)}")
    try:
        j = lgraph_json(out)
    except ValueError:
        raise RuntimeError(f"{' '.join(map(shlex.quote, argv))} exited {rc}: {err.strip()[-500:]}")
    j["peak_rss_mb"] = rss
    j["others_cores"] = others
    j["argv"] = " ".join(map(shlex.quote, [os.path.relpath(argv[0], ROOT)] + argv[1:]))
    if rc not in (0, 3):  # 3: PageRank did not converge, with the iterate
        raise RuntimeError(f"{j['argv']} exited {rc}: {err.strip()[-500:]}")
    return j


def first_value(path):
    with open(path) as f:
        return f.readline().strip()


def value_at(path, index):
    with open(path) as f:
        for i, line in enumerate(f):
            if i == index:
                return line.strip()
    return None


def libgraph_runs(g, opts, lgraph, bfs_exe, refdir):
    """libgraph's timings and reference answers on one graph."""
    res = {"tool": "libgraph", "graph": g.name}
    T, R, K = opts.threads, opts.repeat, opts.sources
    stem = os.path.join(refdir, g.name.replace(":", ""))
    ref = {"bfs_ref": stem + "-bfs.txt", "cc_ref": stem + "-cc.txt", "pr_ref": stem + "-pr.txt",
           "pr_ref_tight": stem + "-pr-tight.txt"}
    builds = []

    def stamp(j):
        builds.append(j["build_s"])
        return j

    bfs = stamp(run_bench_bfs(bfs_exe, g.path, K, opts.seed, ref["bfs_ref"], T, opts.timeout))
    g.n, g.arcs = bfs["vertices"], bfs["arcs"]
    sources = bfs["sources"]
    check_src = sources[-1]
    # --output holds the distances of the last search; make sure of it.
    if value_at(ref["bfs_ref"], check_src) != "0":
        run_lgraph(lgraph, "bfs", g.path, ["--source", str(check_src), "--output", ref["bfs_ref"]], T, opts.timeout)
    res["bfs"] = {"times_s": bfs["times_s"], "method": "direction-optimizing BFS (bench_bfs)", "threads": bfs["threads"],
                  "component_edges": bfs["component_edges"], "sources_run": len(bfs["times_s"]),
                  "sources_given": K, "argv": bfs["argv"], "others_cores": bfs["others_cores"]}

    pr = stamp(run_lgraph(lgraph, "pagerank", g.path, ["--repeat", str(R), "--top", "1", "--output", ref["pr_ref"]],
                          T, opts.timeout))
    # A fixed number of iterations (tolerance 0) for a steady time per
    # iteration: NetworkX's tolerance stops large graphs after 1-3.
    K = opts.pr_iterations
    fixed = ["--tol", "0", "--max-iter", str(K)]
    prk = run_lgraph(lgraph, "pagerank", g.path, ["--repeat", str(R), "--top", "1"] + fixed, T, opts.timeout)
    res["pagerank"] = {"times_s": pr["times_s"], "iterations": pr["iterations"], "threads": pr["threads"],
                       "converged": pr["converged"], "fixed_iterations": prk["iterations"] or K,
                       "fixed_times_s": prk["times_s"], "per_iter_s": prk["median_s"] / (prk["iterations"] or K),
                       "method": "pull power iteration, float64 (lgraph pagerank)", "argv": pr["argv"],
                       "others_cores": pr["others_cores"]}
    prf = stamp(run_lgraph(lgraph, "pagerank", g.path, ["--repeat", str(R), "--top", "1", "--float"], T, opts.timeout))
    prfk = run_lgraph(lgraph, "pagerank", g.path, ["--repeat", str(R), "--top", "1", "--float"] + fixed, T,
                      opts.timeout)
    res["pagerank_float"] = {"times_s": prf["times_s"], "iterations": prf["iterations"], "threads": prf["threads"],
                             "fixed_iterations": prfk["iterations"] or K, "fixed_times_s": prfk["times_s"],
                             "per_iter_s": prfk["median_s"] / (prfk["iterations"] or K),
                             "method": "pull power iteration, float32 (--float)", "argv": prf["argv"],
                             "others_cores": prf["others_cores"]}
    # The converged scores, for anchors that solve PageRank another way.
    run_lgraph(lgraph, "pagerank", g.path, ["--tol", "1e-12", "--max-iter", "10000", "--top", "1",
                                            "--output", ref["pr_ref_tight"]], T, opts.timeout)

    cc = stamp(run_lgraph(lgraph, "cc", g.path, ["--repeat", str(R), "--output", ref["cc_ref"]], T, opts.timeout))
    res["cc"] = {"times_s": cc["times_s"], "components": cc["components"], "largest": cc["largest"],
                 "threads": cc["threads"], "method": "union-find (lgraph cc)", "argv": cc["argv"],
                 "others_cores": cc["others_cores"]}
    res["build"] = {"times_s": builds, "parse_s": None, "method": "lgraph: read .el + build CSR",
                    "others_cores": max(x for x in (bfs["others_cores"], pr["others_cores"], cc["others_cores"], 0)
                                        if x is not None)}
    res["peak_rss_mb"] = max(bfs["peak_rss_mb"], pr["peak_rss_mb"], cc["peak_rss_mb"])
    for algo in ("bfs", "pagerank", "cc"):
        res[algo]["check"] = {"ok": None, "detail": "reference"}
    res["pagerank_float"]["check"] = {"ok": None, "detail": "not checked"}
    # Generated graphs have no self-loops and the bundled ones neither, so
    # arcs = 2 x edges (a file with loops would be off by half their count:
    # this number only sizes memory estimates and the report's graph table).
    g.edges = g.arcs // 2
    check = {"bfs_source": check_src, "pr_iterations": pr["iterations"], **ref}
    return res, sources, check, bfs["component_edges"], cc["components"], cc["largest"]
