"""NMEA 0183 sentence helpers for the scripts that write synthetic tracks (the demo drive,
the daemon benchmark)."""


def sentence(body):
    """`$BODY*CS` with its checksum (XOR of the body's bytes)."""
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X" % (body, c)


def ddmm(value, positive, negative, width):
    """Degrees as NMEA's (d)ddmm.mmmm plus hemisphere letter."""
    h = positive if value >= 0 else negative
    v = abs(value)
    d = int(v)
    return ("%0" + str(width) + "d%07.4f") % (d, (v - d) * 60), h


def lat(value):
    return ddmm(value, "N", "S", 2)


def lon(value):
    return ddmm(value, "E", "W", 3)
