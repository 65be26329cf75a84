#!/usr/bin/env python3
"""Slow clients for bench/http.sh: COUNT connections to 127.0.0.1:PORT from 127.0.0.2-9, each sending a
request line, then a header line every second, never finishing its head; a connection the server
closes (its 10 s deadline) is opened again at once, so COUNT stay open until SECONDS have passed.
Loopback only; stops by itself.   usage: slow-clients.py PORT COUNT SECONDS"""
import selectors, socket, sys, time

port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
sources = [f"127.0.0.{i}" for i in range(2, 10)]
sel = selectors.DefaultSelector()
opened = 0

def open_one(i):
    global opened
    s = socket.socket()
    s.bind((sources[i % len(sources)], 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/v1/routers HTTP/1.1\r\nHost: tbrd\r\n")
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, i)
    opened += 1

for i in range(count):
    open_one(i)
print(f"{count} slow connections open", flush=True)
end = time.monotonic() + seconds
next_line, line = time.monotonic() + 1, 0
while time.monotonic() < end:
    for key, _ in sel.select(timeout=max(0, min(next_line, end) - time.monotonic())):
        try:
            data = key.fileobj.recv(512)
        except OSError:
            data = b""
        if not data:
            sel.unregister(key.fileobj)
            key.fileobj.close()
            open_one(key.data)
    if time.monotonic() >= next_line:
        for key in list(sel.get_map().values()):
            try:
                key.fileobj.send(f"X-Slow-{line}: still sending\r\n".encode())
            except OSError:
                pass
        line += 1
        next_line = time.monotonic() + 1
print(f"{opened} connections opened in all", flush=True)
