"""What lgraph says about itself and its runs: `--version` one labelled line
a field, and with `--repeat` a summary whose time is the runs' median, the
first (cold) run shown apart, both the times that --json lists."""
import json
import re
import statistics

import pytest

lg = pytest.importorskip("libgraph")


def test_version_labels_every_line(lgraph):
    lines = lgraph("--version").stdout.splitlines()
    assert lines[0] == f"libgraph {lg.__version__}", lines
    labels = [line.split(": ", 1)[0] for line in lines[1:5]]
    assert labels == ["compiler", "CPU", "threads", "vectors"], lines
    assert all(line.split(": ", 1)[1] for line in lines[1:5]), lines
    assert re.match(r"compiler: (gcc |.*[Cc]lang)", lines[1]), lines[1]
    assert len(lines) == 6, lines
    assert lines[5].startswith(("GPU plugin: ", "no GPU plugin found: ", "no usable GPU plugin: ")), \
        lines[5]


@pytest.mark.parametrize("command", [["bfs", "--source", "3"], ["pagerank"], ["cc"]])
def test_repeat_reports_the_median_and_the_first_run_apart(lgraph, data_dir, command):
    proc = lgraph(command[0], data_dir / "facebook_combined.el", "--undirected", *command[1:],
                  "--repeat", 5, "--json")
    times = json.loads(proc.stdout.splitlines()[-1])["times_s"]
    assert len(times) == 5
    m = re.search(r", (\d+\.\d{3}) ms \(median of 5 runs; first run, cold: (\d+\.\d{3}) ms\)",
                  proc.stdout)
    assert m, proc.stdout
    assert float(m.group(1)) == pytest.approx(statistics.median(times) * 1e3, abs=1.5e-3)
    assert float(m.group(2)) == pytest.approx(times[0] * 1e3, abs=1.5e-3)


def test_one_run_reports_its_time_alone(lgraph, data_dir):
    proc = lgraph("cc", data_dir / "facebook_combined.el", "--undirected", "--json")
    times = json.loads(proc.stdout.splitlines()[-1])["times_s"]
    m = re.search(r"isolated\), (\d+\.\d{3}) ms\n", proc.stdout)
    assert m and "median" not in proc.stdout.splitlines()[2], proc.stdout
    assert float(m.group(1)) == pytest.approx(times[0] * 1e3, abs=1.5e-3)
