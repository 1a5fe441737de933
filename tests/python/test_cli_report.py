"""What lgraph says about itself: `--version` one labelled line a field."""
import re

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
