#!/usr/bin/python3
"""Turn toggle-bench JSON into PNG charts (time against size, log-log) and a
Markdown table.

  plot.py RESULTS.json --out DIR        one PNG per workload family + overview.png
  plot.py RESULTS.json --table FILE.md  the results as a Markdown table ('-' = stdout)
  plot.py RESULTS.json --check          validate the JSON only (no matplotlib needed)
  plot.py RESULTS.json --page PAGE.md   rewrite PAGE.md from its marker line down:
                                        the run, the charts, the ratios, the table

Every figure of docs/performance.md below its marker comes from one results
file this way, so the page never mixes runs.

A family is a group name with its size component (the first path component
that starts with a digit, such as 1024 or 250x250) replaced by '*'; each
implementation in the family is one line, x = the size's first number.
"""
import argparse
import json
import os
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


MARKER = "<!-- Everything below is generated by bench/plot.py --page from one results file. -->"


def fmt_ratio(v):
    return f"{v:.3g}x"


def summary(data, out):
    """Per family and implementation with a baseline: the range of its ratios
    over the family's sizes: wall (the harness's ratio) and CPU (the ratio of
    the two CPU-time medians, where the run measured CPU time)."""
    rows = {}
    cpu = {(r["group"], r["impl"]): r.get("cpu_median_s") for r in data["results"] if r["ok"]}
    for r in data["results"]:
        if not r["ok"] or not r.get("ratio") or not r.get("baseline"):
            continue
        f, size, _ = family_and_size(r["group"])
        d = rows.setdefault((f, r["impl"], r["baseline"]), {"wall": [], "cpu": [], "sizes": []})
        d["wall"].append(r["ratio"])
        base_cpu = cpu.get((r["group"], r["baseline"]))
        if r.get("cpu_median_s") and base_cpu:
            d["cpu"].append(r["cpu_median_s"] / base_cpu)
        if size is not None:
            d["sizes"].append(size)
    out.write("| workloads | implementation | against | sizes | wall ratio | CPU ratio |\n")
    out.write("| --- | --- | --- | --- | ---: | ---: |\n")
    for (f, impl, base), d in rows.items():
        if impl == base:
            continue
        span = lambda v: "-" if not v else fmt_ratio(v[0]) if min(v) == max(v) else \
            f"{fmt_ratio(min(v))} to {fmt_ratio(max(v))}"
        sizes = sorted(set(d["sizes"]))
        sz = "-" if not sizes else f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
        out.write(f"| {f} | {impl} | {base} | {sz} | {span(d['wall'])} | {span(d['cpu'])} |\n")


def page(data, path, chartdir):
    import io
    import os
    with open(path) as f:
        text = f.read()
    if MARKER not in text:
        raise ValueError(f"{path}: no marker line {MARKER!r}")
    head = text[:text.index(MARKER) + len(MARKER)]
    m = data.get("machine", {})
    out = io.StringIO()
    out.write("\n\n## The run\n\n")
    out.write(f"- libtoggle {data['version']}, {data['date']}"
              f"{' (quick)' if data.get('quick') else ''}, {len(data['results'])} workloads"
              f" in {data.get('elapsed_s', 0):.0f} s.\n")
    if m:
        out.write(f"- {m.get('cpu')}, {m.get('nproc')} CPUs, {m.get('mem_gib', 0):.1f} GiB,"
                  f" {m.get('kernel')}; {m.get('compiler')}.\n")
        out.write(f"- Load average {m.get('load_start')} at the start, {m.get('load_end')}"
                  f" at the end.\n")
        if m.get("cpus") is not None:
            speed = m.get("cpu_speed")
            out.write(f"- CPUs {m.get('cpus')}{' (pinned)' if m.get('pinned') else ''}"
                      f"{'; vector probe time over the fastest CPU: ' + str(speed) if speed else ''}.\n")
    rel = os.path.relpath(chartdir, os.path.dirname(os.path.abspath(path)))
    out.write("\n## Charts\n\nTime against size on log-log axes, one line per"
              " implementation (error bars: min to max).\n\n")
    fam = families(data)
    if fam:
        out.write(f"![every workload family]({rel}/overview.png)\n\n")
        for name in sorted(fam):
            out.write(f"![{name}]({rel}/{slug(name)}.png)\n")
    out.write("\n## Ratios\n\nEach implementation against its group's baseline"
              " (below 1: faster than the baseline), the range over the sizes of the run.\n\n")
    summary(data, out)
    out.write("\n## The table\n\n")
    table(data, out)
    with open(path, "w") as f:
        f.write(head + out.getvalue())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--out", help="directory for the PNG charts")
    ap.add_argument("--table", help="write a Markdown table to this file ('-' = stdout)")
    ap.add_argument("--check", action="store_true", help="only validate the JSON")
    ap.add_argument("--page", help="rewrite this Markdown page from its marker line down")
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
    if a.page:
        try:
            page(data, a.page, a.out or os.path.join(os.path.dirname(a.page), "perf"))
        except (OSError, ValueError) as e:
            print(f"plot.py: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
