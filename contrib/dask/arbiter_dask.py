#!/usr/bin/env python3
"""arbiter_dask.py: check the parts of a split collection on a Dask cluster.

    arbiter split -o parts dump.pgn.zst          # files of whole games
    python3 arbiter_dask.py --scheduler tcp://HOST:8786 --reports reports parts/part-*

Each part is checked by one task, `arbiter check -q -j 1 --report jsonl PART`, on
whichever worker Dask gives it (the parts must be readable there under the same path:
shared storage, or the same directory on every host; `arbiter` on each worker's PATH or
named with --arbiter). The reports come back to this process, which writes them under
--reports in the order of the parts (their concatenation is the report of the whole,
game by game, with lines, columns and game numbers counted within each part) and
prints the merged summary that `arbiter summary` makes of them.

Options after `--` go to `arbiter check` (say `-- --rules vn --no-names`). Without
--scheduler a local cluster of --workers processes is started for the run.

Exit status: that of `arbiter summary` (0 no game has errors, 1 some has), or 2 when a
part could not be checked (its error is printed) or on a usage error.

Needs Dask distributed (Debian: python3-distributed) on this machine and the workers.
"""
import argparse
import os
import subprocess
import sys


def check_part(part, arbiter, options):
    """Runs on a worker: the JSON Lines report of one part."""
    cmd = [arbiter, "check", "-q", "-j", "1", "--report", "jsonl", *options, part]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


def report_name(index, part):
    """reports/NNNNN-<part name>.jsonl: sorted as the parts are, names kept."""
    return "%05d-%s.jsonl" % (index + 1, os.path.basename(part))


def main(argv):
    ap = argparse.ArgumentParser(
        description="Check the parts of a split collection on a Dask cluster "
                    "and merge their summaries.")
    ap.add_argument("--scheduler", help="the scheduler's address (tcp://HOST:PORT); "
                    "default: a local cluster for this run")
    ap.add_argument("--workers", type=int, default=2,
                    help="processes of the local cluster (without --scheduler)")
    ap.add_argument("--arbiter", default="arbiter",
                    help="the program on the workers (default: arbiter on their PATH)")
    ap.add_argument("--reports", default="reports",
                    help="directory for the parts' reports (default: reports)")
    ap.add_argument("--summary-arbiter", default=None,
                    help="the program that merges here (default: as --arbiter)")
    ap.add_argument("parts", nargs="+", help="the files of arbiter split")
    if "--" in argv:
        cut = argv.index("--")
        argv, options = argv[:cut], argv[cut + 1:]
    else:
        options = []
    args = ap.parse_args(argv)

    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print("arbiter_dask: Dask distributed is not installed "
              "(Debian: apt-get install python3-distributed)", file=sys.stderr)
        return 2

    parts = [os.path.abspath(p) for p in args.parts]
    os.makedirs(args.reports, exist_ok=True)
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    failed = False
    reports = []
    try:
        # one task a part; pure=False: a part checked again is checked again
        futures = client.map(check_part, parts, arbiter=args.arbiter, options=options,
                             pure=False)
        for index, (part, future) in enumerate(zip(parts, futures)):
            status, out, err = future.result()
            if err:
                sys.stderr.write(err)
            if status >= 2:
                print("arbiter_dask: %s: arbiter check exited %d" % (part, status),
                      file=sys.stderr)
                failed = True
            path = os.path.join(args.reports, report_name(index, part))
            with open(path, "wb") as f:
                f.write(out)
            reports.append(path)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if failed:
        return 2
    merge = [args.summary_arbiter or args.arbiter, "summary", "--report", "jsonl", *reports]
    return subprocess.run(merge).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
