#!/usr/bin/env python3
"""Load on `kotra-ai serve`, bounded in clients and time and on loopback
only: CLIENTS threads each send analyses one after another for SECONDS,
half at 0-ply and half at 2-ply, over positions of the oracle's dev set;
prints requests a second, p50 and p99 latency per ply, and every status
seen (only 200 and the deliberate 503 are allowed).

    python3 scripts/load_serve.py [--clients 200] [--seconds 60] [--bin target/release/kotra-ai]
"""
import argparse
import http.client
import json
import os
import subprocess
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kotra-ai"))
    args = ap.parse_args()
    if not (1 <= args.clients <= 1000 and 0 < args.seconds <= 600):
        raise SystemExit("--clients 1..1000, --seconds up to 600")
    positions = []
    with open(os.path.join(ROOT, "tests", "data", "dev-moves.jsonl")) as f:
        for line in f:
            d = json.loads(line)
            positions.append((d["gnubg_id"], "%d%d" % tuple(d["dice"])))
    server = subprocess.Popen([args.bin, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    addr = server.stdout.readline().strip().rsplit("http://", 1)[1]
    host, port = addr.rsplit(":", 1)
    stop = time.time() + args.seconds
    lock = threading.Lock()
    lat = {0: [], 2: []}
    statuses = {}

    def client(k):
        ply = 0 if k % 2 == 0 else 2
        i = k
        while time.time() < stop:
            pid, dice = positions[i % len(positions)]
            i += args.clients
            path = "/api/analyze?" + urllib.parse.urlencode({"position": pid, "dice": dice, "ply": ply})
            t = time.time()
            try:
                c = http.client.HTTPConnection(host, int(port), timeout=120)
                c.request("GET", path)
                r = c.getresponse()
                r.read()
                status = r.status
                c.close()
            except Exception as e:  # a dropped connection counts as a failure
                status = type(e).__name__
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    lat[ply].append(time.time() - t)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - t0
    server.kill()
    ok = sum(len(v) for v in lat.values())
    print("%d clients for %.0f s on %s: %.1f answered requests/s" % (args.clients, wall, addr, ok / wall))
    for ply, v in lat.items():
        v.sort()
        if v:
            print("  %d-ply: %d answers, p50 %.0f ms, p99 %.0f ms" % (
                ply, len(v), 1000 * v[len(v) // 2], 1000 * v[min(len(v) - 1, int(len(v) * 0.99))]))
    print("  statuses: %s" % json.dumps({str(k): n for k, n in sorted(statuses.items(), key=str)}))
    bad = {k: n for k, n in statuses.items() if k not in (200, 503)}
    if bad:
        raise SystemExit("failures: %s" % bad)


if __name__ == "__main__":
    main()
