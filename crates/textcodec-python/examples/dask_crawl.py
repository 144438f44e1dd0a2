"""Decoding a crawl with Dask: Parquet files of raw page bytes, each row with the charset its
server declared, decoded as a browser would, one partition (file) per task, on the worker
processes of a `distributed` cluster.

    python examples/dask_crawl.py DIR        # makes a small crawl in DIR and decodes it

Each task reads its file's columns as Arrow arrays and calls
`textcodec.decode_many(bodies, charsets)`: no Python loop over the rows, no copy of the bytes
into Python objects, and the GIL is released while the rows are decoded.
"""

import logging
import pathlib
import sys

import pyarrow as pa
import pyarrow.parquet as pq

import textcodec

# Declared charsets as crawls see them: any label, any case, some with BOMs that override them.
CHARSETS = ["utf-8", "Shift_JIS", "euc-kr", "GBK", "big5", "windows-1251", "ISO-8859-1", "iso-2022-jp", "EUC-JP", "koi8-r"]


def make_crawl(directory, files=4, rows_per_file=250, texts=None):
    """Writes `files` Parquet files of crawl-like rows (url, charset, body); returns their
    paths. Deterministic: the rows come from `texts` (a list of str), encoded in their
    declared charset, some with a BOM, some damaged, some bodies missing (null)."""
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    texts = texts or ["Mars is the fourth planet from the Sun. 火星は太陽系の第4惑星。화성. Марс."]
    paths = []
    for f in range(files):
        urls, charsets, bodies = [], [], []
        for r in range(rows_per_file):
            i = f * rows_per_file + r
            charset = CHARSETS[i % len(CHARSETS)]
            text = texts[i % len(texts)][(i * 37) % 300 :][: 200 + (i * 53) % 900]
            body = textcodec.encode(text, charset)
            if i % 17 == 3:
                body = b"\xef\xbb\xbf" + text.encode("utf-8")  # a BOM wins over the label
            if i % 13 == 5:
                body = body[:-2] + b"\x81\xff"  # damaged
            urls.append(f"https://example.invalid/{f}/{r}")
            charsets.append(charset)
            bodies.append(None if i % 29 == 7 else body)
        table = pa.table({"url": urls, "charset": charsets, "body": pa.array(bodies, pa.binary())})
        path = directory / f"part-{f:03}.parquet"
        pq.write_table(table, path)
        paths.append(str(path))
    return paths


def decode_partition(path):
    """One task: the file's bodies decoded by their declared charsets (an Arrow table)."""
    table = pq.read_table(path)
    text = textcodec.decode_many(table["body"], table["charset"])
    return pa.table({"url": table["url"], "text": text})


def decode_crawl(paths, workers=2):
    """Decodes every file on a local `distributed` cluster of `workers` processes; returns one
    Arrow table in the files' order. The cluster is closed before returning."""
    import cloudpickle
    import dask
    from distributed import Client, LocalCluster

    # The workers get this module's functions by value (it need not be importable there).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster, Client(cluster) as client:
        tasks = [dask.delayed(decode_partition)(p) for p in paths]
        tables = dask.compute(*tasks, scheduler=client)
        assert len(client.scheduler_info()["workers"]) == workers
    return pa.concat_tables(tables)


def decode_here(paths):
    """The same in this process, for comparison."""
    return pa.concat_tables([decode_partition(p) for p in paths])


if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "crawl")
    paths = make_crawl(out)
    result = decode_crawl(paths)
    assert result.equals(decode_here(paths))
    print(f"{result.num_rows} rows from {len(paths)} files decoded on 2 worker processes")
    print(result.slice(0, 3).to_pylist())
