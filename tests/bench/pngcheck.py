"""A strict PNG check: signature, chunk CRCs, header and the decompressed image size."""
import struct
import zlib

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def check_png(path):
    """Returns (width, height); raises ValueError when the file is not a valid PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(_SIGNATURE):
        raise ValueError("no PNG signature")
    pos, chunks = len(_SIGNATURE), []
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError("truncated chunk")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if len(body) != length or zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad {kind!r} chunk")
        chunks.append((kind, body))
        pos += 12 + length
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        raise ValueError("IHDR or IEND missing")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if width == 0 or height == 0 or colour not in _CHANNELS or interlace != 0:
        raise ValueError("unsupported header")
    pixels = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    row = (width * _CHANNELS[colour] * depth + 7) // 8
    if len(pixels) != height * (1 + row):
        raise ValueError("image data does not match the header")
    return width, height
