#!/usr/bin/env python3
"""live.py: the live benchmark of ev2hp --serve (make bench runs it through live.sh).

  live.py follow EV2HP EVENTLOG
      ev2hp --serve follows a whole eventlog (a file already written: read at full speed,
      as a program that has logged for hours would be on connecting); prints the censuses
      read, the wall time to the end of the stream, the ingestion rate, and the peak
      resident memory (VmHWM) while /metrics and / were fetched every 0.2 s; then the same
      eventlog converted plainly (ev2hp FILE -o /dev/null) for the rate and memory to
      compare with.
  live.py flat EV2HP GEN_CENSUSES N
      N generated censuses (gen_censuses, 20 bands) piped into ev2hp --serve: resident
      memory (VmRSS) at every tenth of the stream, which must stay flat, and the rate.
  live.py latency EV2HP GEN_CENSUSES N
      N censuses written one at a time into a FIFO; for each, the time from writing its
      last byte to /metrics counting it (polled over one kept-alive connection): median,
      95th percentile and largest.
Numbers only: nothing here passes or fails.
"""
import http.client
import os
import re
import subprocess
import sys
import tempfile
import time
import resource


def start(argv, **kw):
    """ev2hp --serve as argv, its standard error in a file; (process, host, port)."""
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(argv, stderr=err, **kw)
    for _ in range(600):
        err.seek(0)
        m = re.search(rb"serving http://([0-9.]+):([0-9]+)/", err.read())
        if m:
            return p, m.group(1).decode(), int(m.group(2))
        if p.poll() is not None:
            sys.exit("live.py: ev2hp exited: %r" % err.read())
        time.sleep(0.05)
    sys.exit("live.py: no serving line")


class Metrics:
    def __init__(self, host, port):
        self.conn = http.client.HTTPConnection(host, port, timeout=30)

    def get(self, path="/metrics"):
        self.conn.request("GET", path)
        r = self.conn.getresponse()
        return r.read()

    def values(self):
        out = {}
        for line in self.get().decode().splitlines():
            if line and not line.startswith("#") and "{" not in line:
                k, v = line.split(" ", 1)
                out[k] = float(v)
        return out


def status_kib(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def stop(p):
    p.terminate()
    p.wait()


def follow(ev2hp, eventlog, fetch_page=True):
    size = os.path.getsize(eventlog)
    t0 = time.monotonic()
    p, host, port = start([ev2hp, "-q", "--serve", "0", eventlog])
    m = Metrics(host, port)
    slowest = 0.0
    while True:
        asked = time.monotonic()
        v = m.values()
        slowest = max(slowest, time.monotonic() - asked)
        if fetch_page:
            m.get("/")
        if v.get("ghc_heap_profile_stream_ended") == 1:
            break
        time.sleep(0.2)
    wall = time.monotonic() - t0
    hwm = status_kib(p.pid, "VmHWM")
    censuses = int(v["ghc_heap_profile_censuses_total"])
    stop(p)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    subprocess.run([ev2hp, "-q", eventlog, "-o", "/dev/null"], check=True)
    plain = time.monotonic() - t0
    plain_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print("follow %s (%.1f MB): %d censuses in %.2f s = %.1f MB/s; peak RSS %.1f MiB, "
          "/metrics within %.3f s (plain conversion: %.2f s = %.1f MB/s, peak RSS %s)" % (
              os.path.basename(eventlog), size / 1e6, censuses, wall, size / 1e6 / wall,
              hwm / 1024, slowest, plain, size / 1e6 / plain,
              "%.1f MiB" % (plain_rss / 1024) if plain_rss > before else "below the above"))


def flat(ev2hp, gen, n):
    gen_p = subprocess.Popen([gen, "-n", str(n), "-b", "20"], stdout=subprocess.PIPE)
    t0 = time.monotonic()
    p, host, port = start([ev2hp, "-q", "--serve", "0", "-"], stdin=gen_p.stdout)
    gen_p.stdout.close()
    m = Metrics(host, port)
    marks, next_mark = [], n // 10
    while True:
        v = m.values()
        c = int(v["ghc_heap_profile_censuses_total"])
        while next_mark and c >= next_mark and len(marks) < 10:
            marks.append((next_mark, status_kib(p.pid, "VmRSS")))
            next_mark += n // 10
        if v.get("ghc_heap_profile_stream_ended") == 1:
            break
        time.sleep(0.05)
    wall = time.monotonic() - t0
    hwm = status_kib(p.pid, "VmHWM")
    stop(p)
    gen_p.wait()
    print("flat: %d censuses of 20 bands in %.1f s (%.0f censuses/s); RSS at each tenth "
          "(MiB): %s; peak %.1f MiB" % (
              n, wall, n / wall, " ".join("%.1f" % (k / 1024) for _, k in marks),
              hwm / 1024))


def latency(ev2hp, gen, n):
    work = tempfile.mkdtemp()
    log, offs, fifo = (os.path.join(work, x) for x in ("l.eventlog", "offsets", "in"))
    subprocess.run([gen, "-n", str(n), "-b", "20", "-O", offs, log], check=True)
    data = open(log, "rb").read()
    ends = [int(x) for x in open(offs)]
    os.mkfifo(fifo)
    p, host, port = start([ev2hp, "-q", "--serve", "0", fifo])
    out = open(fifo, "wb", buffering=0)
    m = Metrics(host, port)
    lat, at = [], 0
    for k, end in enumerate(ends, 1):
        out.write(data[at:end])
        at = end
        t0 = time.monotonic()
        while m.values()["ghc_heap_profile_censuses_total"] < k:
            pass
        lat.append(time.monotonic() - t0)
        time.sleep(0.02)
    out.write(data[at:])
    out.close()
    stop(p)
    for f in (log, offs, fifo):
        os.unlink(f)
    os.rmdir(work)
    lat.sort()
    print("latency from a census's last byte to /metrics counting it, %d censuses: median "
          "%.2f ms, 95th percentile %.2f ms, largest %.2f ms" % (
              n, lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.95)] * 1e3, lat[-1] * 1e3))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "follow":
        follow(sys.argv[2], sys.argv[3], fetch_page=len(sys.argv) < 5 or sys.argv[4] != "metrics")
    elif mode == "flat":
        flat(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif mode == "latency":
        latency(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)
