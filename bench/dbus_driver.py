#!/usr/bin/python3
"""D-Bus client for bench/compare.py, run as the session user.

`dbus_driver.py serve`: reads one JSON command per line on stdin and writes
one JSON result per line on stdout. Bursts are sent as async calls from
this single process (dbus-python + GLib main loop).

`dbus_driver.py probe INTERVAL`: calls GetServerInformation every INTERVAL
seconds until a line arrives on stdin, then prints the answer times (ms).

Times are CLOCK_MONOTONIC nanoseconds (the controller reads the same clock).
"""

import json
import select
import sys
import time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
IFACE = NAME


def mono():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def real():
    return time.clock_gettime_ns(time.CLOCK_REALTIME)


def notify_args(summary, body, expire, icon=""):
    return ("bench", dbus.UInt32(0), icon, summary, body, dbus.Array([], signature="s"),
            dbus.Dictionary({}, signature="sv"), dbus.Int32(expire))


class Driver:
    def __init__(self):
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        self.bus = dbus.SessionBus()

    def wait_owned(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.bus.name_has_owner(NAME):
                return {"owned": True, "t": mono()}
            time.sleep(0.002)
        return {"owned": False, "t": mono()}

    def wait_released(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.bus.name_has_owner(NAME):
                return {"released": True}
            time.sleep(0.01)
        return {"released": False}

    def calls(self, method, signature, arglist, timeout):
        """Send every call in arglist asynchronously; wait for all replies."""
        n = len(arglist)
        state = {"left": n, "t_last": None}
        ok, errors = [], []
        loop = GLib.MainLoop()

        def done():
            state["left"] -= 1
            if state["left"] == 0:
                state["t_last"] = mono()
                loop.quit()

        def on_reply(*values):
            ok.append(int(values[0]) if values else 0)
            done()

        def on_error(e):
            errors.append(e.get_dbus_name() if hasattr(e, "get_dbus_name") else str(e))
            done()

        t0 = mono()
        for args in arglist:
            self.bus.call_async(NAME, PATH, IFACE, method, signature, args,
                                on_reply, on_error, timeout=timeout)
        t_sent = mono()
        if n:
            GLib.timeout_add(int(timeout * 1000) + 2000, loop.quit)
            loop.run()
        kinds = {}
        for e in errors:
            kinds[e] = kinds.get(e, 0) + 1
        return {"t0": t0, "t_sent": t_sent, "t_last": state["t_last"], "ok": len(ok),
                "errors": len(errors), "error_kinds": kinds, "missing": state["left"],
                "ids": ok if n <= 2000 else ok[:1] + ok[-1:]}

    def notify(self, n, expire, timeout, icon=""):
        args = [notify_args("Bench %d" % i, "a body line for notification %d" % i, expire, icon)
                for i in range(n)]
        return self.calls("Notify", "susssasa{sv}i", args, timeout)

    def close(self, ids, timeout):
        return self.calls("CloseNotification", "u", [(dbus.UInt32(i),) for i in ids], timeout)

    def notify1(self, expire):
        args = notify_args("Latency", "one notification at a time", expire)
        tm, tr = mono(), real()
        nid = self.bus.call_blocking(NAME, PATH, IFACE, "Notify", "susssasa{sv}i", args, timeout=10)
        return {"t_mono": tm, "t_real": tr, "t_reply": mono(), "id": int(nid)}

    def clocks(self):
        return {"mono": mono(), "real": real()}


def serve():
    d = Driver()
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd.pop("op")
        try:
            out = getattr(d, op)(**cmd)
        except Exception as e:  # reported, never fatal
            out = {"exception": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


def probe(interval):
    bus = dbus.SessionBus()
    times, errors = [], 0
    while True:
        t = time.monotonic()
        try:
            bus.call_blocking(NAME, PATH, IFACE, "GetServerInformation", "", (), timeout=10)
        except dbus.DBusException:
            errors += 1
        times.append((time.monotonic() - t) * 1000.0)
        r, _, _ = select.select([sys.stdin], [], [], max(0.0, interval - (time.monotonic() - t)))
        if r:
            break
    print(json.dumps({"ms": times, "errors": errors}))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve()
    else:
        probe(float(sys.argv[2]))
