"""One anchor on one graph, for bench/run: skipped with the reason when it is
not installed, too slow or too large for the memory; else a process of its
own (bench/anchors.py SPEC RESULT) whose result file is read back."""

import importlib.util
import json
import os
import sys

import anchors as anchors_mod
from harness.common import GIB, HERE
from harness.procs import RUN_STATS, estimate_bytes, mem_available, run_cmd, take_interference


# --------------------------------------------------------------- anchors --

def anchor_available(name):
    if name == "gapbs":
        return None
    mod = anchors_mod.MODULES[name]
    if importlib.util.find_spec(mod) is None:
        return f"not installed (bench/run --install, or pip install -r python/requirements-bench.txt)"
    return None


def run_anchor(name, g, opts, sources, check, workdir):
    reason = anchor_available(name)
    if reason:
        return {"tool": name, "graph": g.name, "skipped": reason}
    if name == "networkx" and g.n > opts.networkx_max_vertices:
        return {"tool": name, "graph": g.name,
                "skipped": f"too slow: {g.n:,} vertices > --networkx-max-vertices {opts.networkx_max_vertices:,}"}
    need, avail = estimate_bytes(name, g.n, g.edges), mem_available()
    if need > 0.85 * avail:
        return {"tool": name, "graph": g.name,
                "skipped": f"would need ~{need / GIB:.1f} GiB, {avail / GIB:.1f} GiB available"}
    spec = {"tool": name, "graph": g.path, "graph_name": g.name, "n": g.n, "threads": opts.threads,
            "sources": sources, "repeat": opts.repeat, "alpha": 0.85, "tol": 1e-6, "max_iter": 100,
            "pr_fixed_iterations": opts.pr_iterations,
            "algorithms": opts.algorithms, "budget_s": opts.budget, "check": check}
    spec_path = os.path.join(workdir, f"{name}-{g.name.replace(':', '')}.spec.json")
    out_path = spec_path.replace(".spec.json", ".result.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    if os.path.exists(out_path):
        os.remove(out_path)
    env = dict(os.environ, OMP_NUM_THREADS=str(opts.threads))
    RUN_STATS.clear()
    rc, out, err, rss, killed = run_cmd([sys.executable, os.path.join(HERE, "anchors.py"), spec_path, out_path],
                                        env=env, timeout=opts.timeout)
    others = take_interference()
    if killed:
        return {"tool": name, "graph": g.name, "error": f"timed out after {opts.timeout} s (--timeout)"}
    if not os.path.exists(out_path):
        sig = f"signal {-rc}" if rc < 0 else f"exit {rc}"
        tail = err.strip().splitlines()[-1:] or [""]
        return {"tool": name, "graph": g.name, "error": f"worker died ({sig}) {tail[0][:200]}".strip()}
    with open(out_path) as f:
        res = json.load(f)
    res["peak_rss_mb"] = rss
    # one process ran everything: its interference stands for each algorithm
    for algo in ["build"] + opts.algorithms:
        if isinstance(res.get(algo), dict):
            res[algo]["others_cores"] = others
    return res
