#!/usr/bin/python3
"""Turn toggle-bench JSON into PNG charts (time against size, log-log) and a
Markdown table.

  plot.py RESULTS.json --out DIR        one PNG per workload family + overview.png
  plot.py RESULTS.json --table FILE.md  the results as a Markdown table ('-' = stdout)
  plot.py RESULTS.json --check          validate the JSON only (no matplotlib needed)

A family is a group name with its size component (the first path component
that starts with a digit, such as 1024 or 250x250) replaced by '*'; each
implementation in the family is one line, x = the size's first number.
"""
import argparse
import json
import re
import sys

SIZE = re.compile(r"^(\d+)(?:x(\d+))?$")


def load(path):
    with open(path) as f:
        data = json.load(f)
    for key in ("version", "date", "results"):
        if key not in data:
            raise ValueError(f"{path}: no '{key}'")
    for r in data["results"]:
        for key in ("name", "group", "impl", "ok", "median_s", "min_s", "max_s", "peak_mib"):
            if key not in r:
                raise ValueError(f"{path}: result {r.get('name')} has no '{key}'")
    return data


def family_and_size(group):
    parts = group.split("/")
    for i, p in enumerate(parts):
        m = SIZE.match(p)
        if m:
            label = "n" if m.group(2) is None else "n (n x n)" if m.group(1) == m.group(2) else "rows (rows x cols)"
            return "/".join(parts[:i] + ["*"] + parts[i + 1:]), int(m.group(1)), label
    return group, None, None


def fmt_time(s):
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} µs"


def table(data, out):
    m = data.get("machine", {})
    out.write(f"libtoggle {data['version']}, {data['date']}"
              f"{' (quick)' if data.get('quick') else ''}")
    if m:
        out.write(f"; {m.get('cpu')}, {m.get('nproc')} CPUs, {m.get('mem_gib', 0):.1f} GiB,"
                  f" {m.get('compiler')}; load average {m.get('load_start')} at the start,"
                  f" {m.get('load_end')} at the end")
    out.write(".\n\n")
    out.write("| group | impl | median | min | max | reps | peak MiB | ratio |\n")
    out.write("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in data["results"]:
        if not r["ok"]:
            out.write(f"| {r['group']} | {r['impl']} | failed | | | | | |\n")
            continue
        ratio = r.get("ratio")
        rs = f"{ratio:.3g}x vs {r.get('baseline')}" if ratio else "-"
        out.write(f"| {r['group']} | {r['impl']} | {fmt_time(r['median_s'])} |"
                  f" {fmt_time(r['min_s'])} | {fmt_time(r['max_s'])} | {r.get('reps', '')} |"
                  f" {r['peak_mib']:.1f} | {rs} |\n")


def families(data):
    fam = {}
    for r in data["results"]:
        if not r["ok"] or r["median_s"] <= 0:
            continue
        f, size, label = family_and_size(r["group"])
        if size is None:
            continue
        d = fam.setdefault(f, {"label": label, "impls": {}})
        d["impls"].setdefault(r["impl"], []).append((size, r["median_s"], r["min_s"], r["max_s"]))
    # Only families with at least two sizes make a line.
    return {f: d for f, d in fam.items()
            if max(len(v) for v in d["impls"].values()) >= 2}


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "_", s.replace("*", "")).strip("_")


def draw(ax, name, d):
    for impl, pts in sorted(d["impls"].items()):
        pts.sort()
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        lo = [p[1] - p[2] for p in pts]
        hi = [p[3] - p[1] for p in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", markersize=3, capsize=2,
                    linewidth=1.2, label=impl)
    ax.set_xscale("log")
    ax.set_yscale("log")
    from matplotlib import ticker
    sizes = sorted({p[0] for pts in d["impls"].values() for p in pts})
    ax.xaxis.set_major_locator(ticker.FixedLocator(sizes))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_title(name, fontsize=9)
    ax.set_xlabel(d["label"], fontsize=8)
    ax.set_ylabel("median seconds", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, which="both", linewidth=0.3, alpha=0.5)
    ax.legend(fontsize=7)


def plot(data, outdir):
    import os
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(outdir, exist_ok=True)
    fam = families(data)
    written = []
    for name, d in sorted(fam.items()):
        fig, ax = plt.subplots(figsize=(5, 3.6), dpi=110)
        draw(ax, name, d)
        fig.tight_layout()
        path = os.path.join(outdir, slug(name) + ".png")
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    if fam:
        cols = 3
        rows = (len(fam) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), dpi=80,
                                 squeeze=False)
        for ax, (name, d) in zip(axes.flat, sorted(fam.items())):
            draw(ax, name, d)
        for ax in list(axes.flat)[len(fam):]:
            ax.axis("off")
        fig.suptitle(f"toggle-bench, libtoggle {data['version']}, {data['date']}", fontsize=10)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / rows))
        path = os.path.join(outdir, "overview.png")
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--out", help="directory for the PNG charts")
    ap.add_argument("--table", help="write a Markdown table to this file ('-' = stdout)")
    ap.add_argument("--check", action="store_true", help="only validate the JSON")
    a = ap.parse_args()
    try:
        data = load(a.json)
    except (OSError, ValueError) as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 1
    bad = [r["name"] for r in data["results"] if not r["ok"]]
    if a.check:
        print(f"{len(data['results'])} results, {len(bad)} failed,"
              f" {len(families(data))} families with a chart")
        return 1 if bad else 0
    if a.table:
        if a.table == "-":
            table(data, sys.stdout)
        else:
            with open(a.table, "w") as f:
                table(data, f)
    if a.out:
        for p in plot(data, a.out):
            print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
