"""Free loopback ports for the test harnesses' servers (gpsd, hotcold-web, brokers), chosen
below the kernel's ephemeral range: that range is where every outgoing connection's local port
comes from, so a port picked there can be taken by some client's connection before the server
binds it when a whole suite runs at once. HotColdTestSupport's FreePort does the same."""
import random
import socket


def _ephemeral_low():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_handed_out = set()


def free_port(kind=socket.SOCK_STREAM):
    """A port on 127.0.0.1 that could be bound just now and was not handed out before."""
    top = max(10001, _ephemeral_low() - 1)
    for _ in range(500):
        port = random.randint(10000, top)
        if port in _handed_out:
            continue
        _handed_out.add(port)
        s = socket.socket(socket.AF_INET, kind)
        try:
            s.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
