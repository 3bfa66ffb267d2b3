"""The Spark job in local mode over generated WARCs, both modes: pages/s and MB/s per core.

    chaff-lab synth --seed 5 --sites 120 --pages 600 --warc /tmp/synth-1g.warc.gz
    python python/bench/spark_bench.py --cores 2 /tmp/synth-1g.warc.gz

MB are of HTML (the pages' bytes after transfer decoding) and of WARC file; per core is the
total divided by the local[N] cores. The Parquet output goes to a temporary folder.
"""

import argparse
import os
import sys
import tempfile
import time


def html_bytes(paths):
    import chaff

    pages = size = 0
    for p in paths:
        for r in chaff.read_warc(p, errors="skip"):
            pages += 1
            size += len(r.html)
    return pages, size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--modes", default="page,site")
    ap.add_argument("--stripes", type=int, default=0,
                    help="tasks reading each WARC (0: enough for every core)")
    a = ap.parse_args()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from chaff.spark import run

    warc_mb = sum(os.path.getsize(p) for p in a.paths) / 1e6
    pages, size = html_bytes(a.paths)
    print(f"input: {len(a.paths)} WARC files, {warc_mb:.0f} MB of WARC, {pages} pages, "
          f"{size / 1e6:.0f} MB of HTML; load {open('/proc/loadavg').read().split()[:3]}")
    spark = (SparkSession.builder.master(f"local[{a.cores}]").appName("chaff-bench")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "4g")
             .config("spark.sql.shuffle.partitions", str(a.cores * 8))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory() as d:
        for mode in a.modes.split(","):
            started = time.perf_counter()
            stats = run(spark, a.paths, os.path.join(d, mode), mode=mode, stripes=a.stripes)
            secs = time.perf_counter() - started
            per_core = a.cores * secs
            print(f"{mode}-level: {stats['rows']} rows ({stats['errors']} errors) in {secs:.0f} s: "
                  f"{stats['pages'] / per_core:.1f} pages/s per core, "
                  f"{size / 1e6 / per_core:.2f} MB/s of HTML per core, "
                  f"{warc_mb / per_core:.2f} MB/s of WARC per core "
                  f"(load {open('/proc/loadavg').read().split()[:3]})", flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
