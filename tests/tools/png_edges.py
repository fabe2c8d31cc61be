#!/usr/bin/env python3
"""png_edges — for each PNG given (8-bit RGB or RGBA, non-interlaced: what rsvg-convert writes),
prints "PATH WIDTH HEIGHT DARK" where DARK counts the pixels of its outermost two rows and columns
that are not near white; exits 1 when any is (something drawn reaches the canvas's edge: cut)."""
import struct
import sys
import zlib


def rows_of(path):
    data = open(path, "rb").read()
    pos, idat = 8, b""
    w = h = bpp = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (2, 6) or body[12] != 0:
                raise SystemExit(f"{path}: not an 8-bit non-interlaced RGB(A) PNG")
            bpp = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows = bytearray(stride), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return rows, w, h, bpp


bad = False
for path in sys.argv[1:]:
    rows, w, h, bpp = rows_of(path)

    def px(x, y):
        return rows[y][x * bpp:x * bpp + 3]

    edge = [px(x, y) for y in range(h) for x in (0, 1, w - 2, w - 1)]
    edge += [px(x, y) for y in (0, 1, h - 2, h - 1) for x in range(w)]
    dark = sum(1 for p in edge if min(p) < 200)
    print(path.rsplit("/", 1)[-1], w, h, dark)
    bad = bad or dark > 0
sys.exit(1 if bad else 0)
