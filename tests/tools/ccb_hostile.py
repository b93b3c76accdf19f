#!/usr/bin/env python3
"""ccb_hostile.py SAMPLES OUT: damaged CCBridge files for ccbridge.test, made from the
shared samples (reference §4 layouts), into OUT:

  v1.cbr            test.cbr rewritten as a version 1 record (strings 128 bytes earlier,
                    result, position and tree 256 earlier, squares as nibbles)
  cut-header.cbr    test.cbr cut inside its header
  cut-tree.cbr      test.cbr cut in the middle of its move tree
  comment-4g.cbr    test.cbr with its first comment length set to 0xFFFFFFFF
  tail.cbr          test.cbr with bytes after its tree
  cap.cbl           专辑林兴荣.CBL with an index capacity that cannot fit
  long.cbl          its third record longer than its slots
  slots.cbl         its second record claiming 2^31 slots
  cut.cbl           the library cut in its fifth record
  tree.cbl          the first record's stated length 9 bytes short of its tree
  packed-len.cbl    残局的生死棋型.CBL with the 3rd record's length running past the data
  packed-cut.cbl    the compressed data cut short
"""
import os
import struct
import sys
import zlib

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def read(name):
    return bytearray(open(os.path.join(src, name), "rb").read())


def write(name, data):
    open(os.path.join(out, name), "wb").write(bytes(data))


cbr = read("test.cbr")
# version 1
v1 = bytearray(1958)
v1[:20] = cbr[:20]
v1[19] = 1
v1[52:52 + 1896 - 128] = cbr[180:180 + 1896 - 128]
v1[1820:1958] = bytes(1958 - 1820)
v1[1820] = cbr[2076]
v1[1856:1864] = cbr[2112:2120]
v1[1864:1954] = cbr[2120:2210]
p = 2214
while p < len(cbr):
    flags, z, f, t = cbr[p:p + 4]
    v1 += bytes([flags, z, (f % 9) << 4 | f // 9, (t % 9) << 4 | t // 9])
    p += 4
    if flags & 4:
        (n,) = struct.unpack_from("<I", cbr, p)
        v1 += cbr[p:p + 4 + n]
        p += 4 + n
write("v1.cbr", v1)
write("cut-header.cbr", cbr[:1000])
write("cut-tree.cbr", cbr[:2214 + (len(cbr) - 2214) // 2])
c4 = bytearray(cbr)
p = 2214
while not c4[p] & 4:
    p += 4
c4[p + 4:p + 8] = b"\xff\xff\xff\xff"
write("comment-4g.cbr", c4)
write("tail.cbr", cbr + b"\0\0\0\0\0")

lib = read("专辑林兴荣.CBL")
(cap,) = struct.unpack_from("<I", lib, 60)
index = 66624


def used():
    return [i for i in range(cap) if struct.unpack_from("<I", lib, index + 276 * i)[0]]


u = used()
bad = bytearray(lib)
struct.pack_into("<I", bad, 60, 0x00FFFFFF)
write("cap.cbl", bad)
bad = bytearray(lib)
e = index + 276 * u[2]
(slots,) = struct.unpack_from("<I", bad, e + 8)
struct.pack_into("<I", bad, e + 12, slots * 4096 + 1)
write("long.cbl", bad)
bad = bytearray(lib)
struct.pack_into("<I", bad, index + 276 * u[1] + 8, 0x80000000)
write("slots.cbl", bad)
data = index + 276 * cap
off = data
for i in u[:4]:
    off += 4096 * struct.unpack_from("<I", lib, index + 276 * i + 8)[0]
write("cut.cbl", lib[:off + 3000])
bad = bytearray(lib)
e = index + 276 * u[0]
(length,) = struct.unpack_from("<I", bad, e + 12)
struct.pack_into("<I", bad, e + 12, length - 9)
write("tree.cbl", bad)

z = read("残局的生死棋型.CBL")
raw = bytearray(zlib.decompress(bytes(z[20:])))
p = 0
(n,) = struct.unpack_from("<I", raw, p)
p += 4 + n
for _ in range(4):
    (n,) = struct.unpack_from("<I", raw, p)
    p += 4 + n
p += 38 + 4
(n,) = struct.unpack_from("<I", raw, p)
p += 4 + n
for _ in range(2):
    p += struct.unpack_from("<I", raw, p)[0]
struct.pack_into("<I", raw, p, 0x7FFFFFFF)
write("packed-len.cbl", z[:20] + zlib.compress(bytes(raw), 9))
write("packed-cut.cbl", z[:len(z) // 2])
