#!/usr/bin/env python3
"""Times BFS, PageRank and connected components from two source trees of
libgraph on one machine, in alternating rounds, and prints each one's ratio.

    bench/compare_trees.py BASE [HEAD] [--device cpu|gpu] [--threads T]
                           [--rounds R] [--graphs kron:20 ...] [--build-dir DIR] [--cuda]

BASE and HEAD are source trees (directories) or git revisions of this
repository (exported with `git archive`); HEAD defaults to this tree.  Each
is built in Release (the CUDA plugin too with --device gpu) under DIR
(default build/compare), then each round runs bench_gpu_traversal (BFS's
median over 16 sources, CC's median) and bench_gpu_pagerank (one double
iteration) from both builds, the order swapped every round so that a drift
of the machine falls on both.  Printed: each measure's median over the
rounds for BASE and HEAD, HEAD / BASE, and each one's range over the rounds.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MEASURES = [  # (name, program, pattern of its row)
    ("BFS", "bench_gpu_traversal", r"row: (\S+) BFS: [\d.]+ ms mean, ([\d.]+) ms median"),
    ("CC", "bench_gpu_traversal", r"row: (\S+) CC: ([\d.]+) ms"),
    ("PageRank", "bench_gpu_pagerank", r"row: (\S+) double iteration: ([\d.]+) ms"),
]


def source_tree(spec, work):
    """A directory holding the tree spec names (a directory, or a revision)."""
    if os.path.isdir(spec):
        return os.path.abspath(spec)
    dest = os.path.join(work, "src-" + re.sub(r"[^\w.-]", "_", spec))
    if not os.path.isdir(dest):
        os.makedirs(dest)
        with tempfile.TemporaryFile() as f:
            subprocess.run(["git", "-C", ROOT, "archive", spec], stdout=f, check=True)
            f.seek(0)
            with tarfile.open(fileobj=f) as t:
                t.extractall(dest, filter="data")
    return dest


def build(src, out, gpu):
    """Builds the two benchmarks of src in out; their directory."""
    subprocess.run(["cmake", "-S", src, "-B", out, "-DCMAKE_BUILD_TYPE=Release",
                    "-DLIBGRAPH_GPU=" + ("CUDA" if gpu else "OFF"), "-DLIBGRAPH_PYTHON=OFF",
                    "-DLIBGRAPH_DIST=OFF", "-DLIBGRAPH_BUILD_TESTS=OFF"],
                   check=True, stdout=subprocess.DEVNULL)
    targets = ["bench_gpu_traversal", "bench_gpu_pagerank"] + (["graph_cuda"] if gpu else [])
    subprocess.run(["cmake", "--build", out, "-j", str(os.cpu_count()), "--target"] + targets,
                   check=True, stdout=subprocess.DEVNULL)
    return out


def run_once(bindir, args, graphs):
    """{(measure, graph): ms} of one run of both benchmarks."""
    found = {}
    common = ["--device", args.device, "--threads", str(args.threads)]
    traversal = subprocess.run(
        [os.path.join(bindir, "bench_gpu_traversal")] + common +
        ["--repeat", "5", "--sources", "16"] + graphs,
        check=True, capture_output=True, text=True).stdout
    pagerank = subprocess.run(
        [os.path.join(bindir, "bench_gpu_pagerank")] + common + ["--repeat", "5"] +
        [g.removeprefix("kron:") for g in graphs],
        check=True, capture_output=True, text=True).stdout
    for name, program, pattern in MEASURES:
        text = traversal if program == "bench_gpu_traversal" else pagerank
        for m in re.finditer(pattern, text):
            graph = m.group(1) if m.group(1).count(":") else "kron:" + m.group(1)
            found[(name, graph)] = float(m.group(2))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base")
    p.add_argument("head", nargs="?", default=ROOT)
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--graphs", nargs="+", default=["kron:20"])
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build", "compare"))
    p.add_argument("--cuda", action="store_true",
                   help="build the CUDA plugin too (implied by --device gpu; a later --device "
                        "cpu run with --cuda reuses the builds)")
    args = p.parse_args()
    os.makedirs(args.build_dir, exist_ok=True)
    gpu = args.device == "gpu" or args.cuda
    trees = {"base": source_tree(args.base, args.build_dir),
             "head": source_tree(args.head, args.build_dir)}
    bins = {k: build(v, os.path.join(args.build_dir, k + ("-cuda" if gpu else "")), gpu)
            for k, v in trees.items()}
    times = {"base": {}, "head": {}}
    for r in range(args.rounds):
        for k in (["base", "head"] if r % 2 == 0 else ["head", "base"]):
            for key, ms in run_once(bins[k], args, args.graphs).items():
                times[k].setdefault(key, []).append(ms)
    print(f"device {args.device}, {args.threads} threads, {args.rounds} alternating rounds; "
          f"base {args.base}, head {args.head}")
    print(f"{'measure':<10} {'graph':<10} {'base ms':>9} {'head ms':>9} {'head/base':>9}"
          f"  {'base min-max':>15} {'head min-max':>15}")
    for key in sorted(times["base"]):
        if key not in times["head"]:
            continue
        tb, th = times["base"][key], times["head"][key]
        b, h = statistics.median(tb), statistics.median(th)
        print(f"{key[0]:<10} {key[1]:<10} {b:9.3f} {h:9.3f} {h / b:9.3f}"
              f"  {min(tb):7.3f}-{max(tb):<7.3f} {min(th):7.3f}-{max(th):<7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
