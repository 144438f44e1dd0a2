"""The Dask example: a crawl-like Parquet dataset (several files, raw bytes and a declared
charset per row) decoded on a distributed LocalCluster of two worker processes, checked row
by row against the single-process result and against textcodec.decode."""

import pathlib
import sys

import pyarrow.parquet as pq

import textcodec
from conftest import corpus_texts

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import dask_crawl  # noqa: E402


def test_dask_crawl(tmp_path):
    texts = [t for t in corpus_texts().values()]
    paths = dask_crawl.make_crawl(tmp_path, files=4, rows_per_file=200, texts=texts)
    assert len(paths) == 4
    distributed = dask_crawl.decode_crawl(paths, workers=2)
    here = dask_crawl.decode_here(paths)
    assert distributed.num_rows == here.num_rows == 800
    assert distributed.equals(here)
    # Every row, against the one-item API.
    rows = [r for p in paths for r in pq.read_table(p).to_pylist()]
    got = distributed.column("text").to_pylist()
    nulls = 0
    for row, text in zip(rows, got):
        if row["body"] is None:
            assert text is None
            nulls += 1
        else:
            assert text == textcodec.decode(row["body"], row["charset"])
    assert nulls > 0
    assert distributed.column("url").to_pylist() == [r["url"] for r in rows]
