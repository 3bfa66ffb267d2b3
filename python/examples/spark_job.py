"""WARC files to Parquet with chaff on Spark: one row per page (url, site, title, author, date,
language, text, markdown, confidence, error, source, profile, comments).

Locally:

    python python/examples/spark_job.py --mode site --master 'local[2]' -o out.parquet crawl/*.warc.gz

On a cluster, ship the wheel (built by `pip wheel ./python -w dist/` or `maturin build
--release -m python/pyproject.toml`) with the job, and name WARCs on any Hadoop file system:

    spark-submit --master yarn --py-files dist/chaff-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl \
        python/examples/spark_job.py --mode site -o s3a://bucket/cc-text/ \
        s3a://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/.../warc/*.warc.gz

(`--py-files` puts the wheel on the executors' path; with an abi3 wheel of the executors'
platform that is enough. Or install it into the executors' Python environment.)
"""

import argparse
import json
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="WARC files (local paths, hdfs://, s3a://, ...)")
    ap.add_argument("-o", "--output", required=True, help="Parquet output (overwritten)")
    ap.add_argument("--mode", choices=["page", "site"], default="page")
    ap.add_argument("--master", help="Spark master (default: as spark-submit sets it)")
    ap.add_argument("--min-site-pages", type=int, default=5)
    ap.add_argument("--sample-cap", type=int, default=200)
    ap.add_argument("--split-above", type=int, default=20000)
    ap.add_argument("--methods", help="site methods to learn, comma-separated")
    ap.add_argument("--favor", choices=["precision", "recall"])
    ap.add_argument("--no-markdown", action="store_true", help="leave the markdown column empty")
    ap.add_argument("--comments", action="store_true",
                    help="keep readers' comments in text and markdown too")
    ap.add_argument("--no-links", action="store_true", help="markdown links as their text")
    ap.add_argument("--no-images", action="store_true", help="no images in the markdown")
    a = ap.parse_args(argv)

    from pyspark.sql import SparkSession

    from chaff.spark import run

    builder = SparkSession.builder.appName(f"chaff-{a.mode}")
    if a.master:
        builder = builder.master(a.master)
    spark = builder.getOrCreate()
    try:
        stats = run(spark, a.paths, a.output, mode=a.mode, min_site_pages=a.min_site_pages,
                    sample_cap=a.sample_cap, split_above=a.split_above,
                    methods=a.methods.split(",") if a.methods else None,
                    favor_precision=a.favor == "precision", favor_recall=a.favor == "recall",
                    markdown=not a.no_markdown, include_comments=a.comments,
                    include_links=not a.no_links, include_images=not a.no_images)
    finally:
        spark.stop()
    print(json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
