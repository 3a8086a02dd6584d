#!/usr/bin/python3
"""Browser test of the sweep gallery: headless Chromium over the DevTools
protocol on a pipe (--remote-debugging-pipe: NUL-separated JSON on fds 3/4),
standard library only, no network. Checks: no console errors or exceptions,
every visible thumbnail loads, a filter from the URL hash and a filter set
through the form hide exactly the cards they should.
usage: test_gallery.py TOGGLE_BINARY   (exit 77 = skipped)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM = os.environ.get("TOGGLE_CHROMIUM", "/usr/bin/chromium")


class Browser:
    def __init__(self, profile):
        r_cmd, w_cmd = os.pipe()   # we write commands, chromium reads fd 3
        r_evt, w_evt = os.pipe()   # chromium writes fd 4, we read

        # move the child's ends clear of 3 and 4 first, so the dup2s cannot clobber them
        rc2 = os.dup(r_cmd) if r_cmd < 5 else r_cmd
        we2 = os.dup(w_evt) if w_evt < 5 else w_evt
        while rc2 < 5:
            rc2 = os.dup(rc2)
        while we2 < 5:
            we2 = os.dup(we2)

        def child():
            os.dup2(rc2, 3)
            os.dup2(we2, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-extensions",
             "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            preexec_fn=child, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in {r_cmd, w_evt, rc2, we2}:
            os.close(fd)
        self.w = os.fdopen(w_cmd, "wb", buffering=0)
        self.r = os.fdopen(r_evt, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buf:
            chunk = self.r.read(65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.w.write(json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]
            self.events.append(m)

    def wait_event(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


CHECK = r"""
(async function () {
  var cards = Array.prototype.slice.call(document.querySelectorAll('#gallery figure'));
  var imgs = Array.prototype.slice.call(document.querySelectorAll('#gallery figure:not([hidden]) img'));
  imgs.forEach(function (i) { i.loading = 'eager'; });
  await Promise.all(imgs.map(function (i) {
    return i.complete ? null : new Promise(function (ok) { i.onload = i.onerror = ok; });
  }));
  return JSON.stringify({
    total: cards.length,
    shown: cards.filter(function (c) { return !c.hidden; }).length,
    shownAttr: document.body.getAttribute('data-shown'),
    visible: cards.filter(function (c) { return !c.hidden; }).map(function (c) {
      return [c.dataset.n, c.dataset.p, c.dataset.cmap, c.dataset.sym, c.dataset.solvable]; }),
    all: cards.map(function (c) {
      return [c.dataset.n, c.dataset.p, c.dataset.cmap, c.dataset.sym, c.dataset.solvable]; }),
    images: imgs.length,
    broken: imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                .map(function (i) { return i.getAttribute('src'); })
  });
})()
"""


def evaluate(b, session, expr):
    r = b.call("Runtime.evaluate", {"expression": expr, "awaitPromise": True,
                                    "returnByValue": True}, session)
    if "exceptionDetails" in r:
        raise RuntimeError("script failed: %s" % r["exceptionDetails"])
    return r["result"]["value"]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not os.access(CHROMIUM, os.X_OK):
        print("SKIP: %s not found; install Debian's chromium (apt-get install chromium) "
              "to run the gallery browser test" % CHROMIUM)
        return 77
    toggle = sys.argv[1]
    work = tempfile.mkdtemp(prefix="toggle-gallery-")
    failures = []
    try:
        out = os.path.join(work, "sweep")
        subprocess.run([toggle, "sweep", "--sizes", "1..8", "--primes", "2..7",
                        "--colormaps", "viridis,set1_r", "--threads", "2", "--out", out],
                       check=True)
        b = Browser(os.path.join(work, "profile"))
        try:
            target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for dom in ("Runtime", "Log", "Page"):
                b.call(dom + ".enable", {}, s)
            url = "file://" + os.path.join(out, "index.html") + "#p=3"
            b.call("Page.navigate", {"url": url}, s)
            b.wait_event("Page.loadEventFired")
            r = json.loads(evaluate(b, s, CHECK))
            print("hash filter p=3: %d of %d cards shown, %d images" %
                  (r["shown"], r["total"], r["images"]))
            want = [c for c in r["all"] if c[1] == "3"]
            if r["visible"] != want or not want:
                failures.append("p=3 filter shows %s, expected %s" % (r["visible"], want))
            if r["shownAttr"] != str(len(want)):
                failures.append("data-shown is %s" % r["shownAttr"])
            if r["broken"] or r["images"] == 0:
                failures.append("thumbnails failed to load: %s" % r["broken"])
            # a filter set through the form: unsolvable boards only (p filter cleared)
            evaluate(b, s, """(function () {
                var f = document.getElementById('f-p'); f.value = '';
                f.dispatchEvent(new Event('change'));
                var g = document.getElementById('f-solvable'); g.value = 'no';
                g.dispatchEvent(new Event('change')); return location.hash; })()""")
            r = json.loads(evaluate(b, s, CHECK))
            want = [c for c in r["all"] if c[4] == "no"]
            print("form filter solvable=no: %d of %d cards shown" % (r["shown"], r["total"]))
            if r["visible"] != want or not want:
                failures.append("solvable=no shows %s, expected %s" % (r["visible"], want))
            if evaluate(b, s, "location.hash") != "#solvable=no":
                failures.append("the form did not update the URL hash")
            # colour map and symmetry together (leave first: a hash change alone
            # would be a same-document navigation without a load event)
            b.call("Page.navigate", {"url": "about:blank"}, s)
            b.wait_event("Page.loadEventFired")
            b.call("Page.navigate", {"url": "file://" + os.path.join(out, "index.html") +
                                     "#cmap=set1_r&sym=full-D4"}, s)
            b.wait_event("Page.loadEventFired")
            r = json.loads(evaluate(b, s, CHECK))
            want = [c for c in r["all"] if c[3] == "full-D4" and c[2] in ("set1_r", "none")]
            print("cmap=set1_r&sym=full-D4: %d of %d cards shown" % (r["shown"], r["total"]))
            if r["visible"] != want or not want or r["broken"]:
                failures.append("cmap+sym filter shows %s, expected %s" % (r["visible"], want))
            errors = [e for e in b.events if
                      e.get("method") == "Runtime.exceptionThrown" or
                      (e.get("method") == "Runtime.consoleAPICalled" and
                       e["params"].get("type") in ("error", "assert")) or
                      (e.get("method") == "Log.entryAdded" and
                       e["params"]["entry"].get("level") == "error")]
            if errors:
                failures.append("console errors: %s" % json.dumps(errors)[:2000])
        finally:
            b.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("gallery browser test:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
