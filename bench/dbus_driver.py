#!/usr/bin/python3
"""D-Bus client for bench/compare.py, run as the session user.

`dbus_driver.py serve`: reads one JSON command per line on stdin and writes
one JSON result per line on stdout. Bursts are sent as async calls from
this single process (dbus-python + GLib main loop).

`day` (bench/day.py) sends a scripted sequence at its times, replacing and
closing earlier notifications by the names the script gives them, and
counts the NotificationClosed and ActionInvoked signals it sees.

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


def notify_args(summary, body, expire, icon="", app="bench"):
    return (app, dbus.UInt32(0), icon, summary, body, dbus.Array([], signature="s"),
            dbus.Dictionary({}, signature="sv"), dbus.Int32(expire))


def variant(value):
    """A hint's value with the D-Bus type the specification gives it."""
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if isinstance(value, int):
        return dbus.Int32(value)
    return dbus.String(value)


def day_hints(hints):
    out = {k: variant(v) for k, v in hints.items()}
    if "urgency" in hints:
        out["urgency"] = dbus.Byte(hints["urgency"])
    return dbus.Dictionary(out, signature="sv")


class Driver:
    def __init__(self):
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        self.bus = dbus.SessionBus()
        self.named = {}       # a day's script name -> the id the daemon gave
        self.acked = set()    # every id a day's Notify got back
        self.closed = {}      # id -> the reason of its NotificationClosed
        self.actions = 0      # ActionInvoked signals seen
        self.watching = False

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

    def notify(self, n, expire, timeout, icon="", apps=1):
        """n Notify calls; with apps > 1 from that many app names in turn
        (bench-0, bench-1, ...), else all from "bench"."""
        args = [notify_args("Bench %d" % i, "a body line for notification %d" % i, expire, icon,
                            "bench" if apps <= 1 else "bench-%d" % (i % apps))
                for i in range(n)]
        return self.calls("Notify", "susssasa{sv}i", args, timeout)

    def notify_image(self, width, height, timeout):
        """One Notify with an image-data hint of width x height RGBA
        pixels (a gradient, so nothing can be shared or compressed)."""
        row = bytes((x * 7 + 13) & 0xFF for x in range(width * 4))
        pixels = row * height
        image = dbus.Struct((dbus.Int32(width), dbus.Int32(height), dbus.Int32(width * 4), dbus.Boolean(True),
                             dbus.Int32(8), dbus.Int32(4), dbus.ByteArray(pixels)), signature="iiibiiay")
        args = ("bench", dbus.UInt32(0), "", "A large image", "image-data of %dx%d" % (width, height),
                dbus.Array([], signature="s"), dbus.Dictionary({"image-data": image}, signature="sv"),
                dbus.Int32(-1))
        return self.calls("Notify", "susssasa{sv}i", [args], timeout)

    def close(self, ids, timeout):
        return self.calls("CloseNotification", "u", [(dbus.UInt32(i),) for i in ids], timeout)

    def notify1(self, expire):
        args = notify_args("Latency", "one notification at a time", expire)
        tm, tr = mono(), real()
        nid = self.bus.call_blocking(NAME, PATH, IFACE, "Notify", "susssasa{sv}i", args, timeout=10)
        return {"t_mono": tm, "t_real": tr, "t_reply": mono(), "id": int(nid)}

    def clocks(self):
        return {"mono": mono(), "real": real()}

    # ----------------------------------------------------------------- day

    def watch(self):
        """Subscribes to the signals once, on the first day: the other
        commands' runs receive none, as before."""
        if self.watching:
            return
        self.watching = True

        def closed(nid, reason):
            self.closed[int(nid)] = int(reason)

        def invoked(nid, key):
            self.actions += 1

        self.bus.add_signal_receiver(closed, "NotificationClosed", IFACE, None, PATH)
        self.bus.add_signal_receiver(invoked, "ActionInvoked", IFACE, None, PATH)

    def spin(self, seconds):
        """Runs the main loop for `seconds`: the signals that came are handled."""
        loop = GLib.MainLoop()
        GLib.timeout_add(int(seconds * 1000), loop.quit)
        loop.run()

    def day(self, steps, timeout):
        """Sends each step at its time `t` (seconds from now): a Notify
        ({"summary", "body", "app", "icon", "actions", "hints", "expire",
        optional "name" to remember its id, "replaces" a name}) or a
        CloseNotification ({"close": name}). A step naming a notification
        whose Notify has not been answered yet waits for that answer (a
        client updating its progress notification does the same), so the
        sequence is the same whatever the daemon's speed; then returns when
        every call is answered."""
        self.watch()
        loop = GLib.MainLoop()
        state = {"next": 0, "left": len(steps), "lag": 0.0}
        pending, waiting = {}, {}  # name -> Notify calls unanswered; name -> steps held
        out = {"notify": 0, "ok": 0, "errors": 0, "error_kinds": {}, "closes": 0, "close_errors": 0,
               "replaced_same": 0, "replaced_new": 0}
        t0 = time.monotonic()

        def done():
            state["left"] -= 1
            if state["left"] == 0:
                loop.quit()

        def failed(key):
            def on_error(e):
                name = e.get_dbus_name() if hasattr(e, "get_dbus_name") else str(e)
                out[key] += 1
                if key == "errors":
                    out["error_kinds"][name] = out["error_kinds"].get(name, 0) + 1
                done()
            return on_error

        def notified(step, old):
            def on_reply(nid):
                nid = int(nid)
                out["ok"] += 1
                self.acked.add(nid)
                if old:
                    out["replaced_same" if nid == old else "replaced_new"] += 1
                name = step.get("name")
                if name:
                    self.named[name] = nid
                    pending[name] -= 1
                    if not pending[name]:
                        for s in waiting.pop(name, []):
                            send(s)
                done()
            return on_reply

        def send(step):
            ref = step.get("replaces") or step.get("close")
            if pending.get(ref):
                waiting.setdefault(ref, []).append(step)
                return
            if "close" in step:
                out["closes"] += 1
                self.bus.call_async(NAME, PATH, IFACE, "CloseNotification", "u",
                                    (dbus.UInt32(self.named.get(ref, 0)),),
                                    lambda *a: done(), failed("close_errors"), timeout=timeout)
                return
            old = self.named.get(ref, 0) if ref else 0
            if step.get("name"):
                pending[step["name"]] = pending.get(step["name"], 0) + 1
            out["notify"] += 1
            args = (step.get("app", "bench"), dbus.UInt32(old), step.get("icon", ""),
                    step["summary"], step.get("body", ""), dbus.Array(step.get("actions", []), signature="s"),
                    day_hints(step.get("hints", {})), dbus.Int32(step.get("expire", -1)))
            self.bus.call_async(NAME, PATH, IFACE, "Notify", "susssasa{sv}i", args,
                                notified(step, old), failed("errors"), timeout=timeout)

        def tick():
            now = time.monotonic() - t0
            while state["next"] < len(steps) and steps[state["next"]]["t"] <= now:
                step = steps[state["next"]]
                state["lag"] = max(state["lag"], now - step["t"])
                state["next"] += 1
                send(step)
            if state["next"] < len(steps):
                GLib.timeout_add(max(1, int((steps[state["next"]]["t"] - now) * 1000)), tick)
            return False

        if steps:
            GLib.idle_add(tick)
            GLib.timeout_add(int((steps[-1]["t"] + timeout) * 1000) + 2000, loop.quit)
            loop.run()
        out.update(missing=state["left"], seconds=time.monotonic() - t0, lag_max=state["lag"])
        return out

    def ids_of(self, names):
        return {n: self.named.get(n) for n in names}

    def close_open(self, settle, timeout):
        """After `settle` seconds (the last expiries and signals), closes
        every id a day got back that no NotificationClosed has ended."""
        self.spin(settle)
        live = sorted(self.acked - set(self.closed))
        r = self.close(live, timeout)
        self.spin(settle)
        return {"closed_at_end": len(live), "ok": r["ok"], "errors": r["errors"],
                "error_kinds": r["error_kinds"]}

    def day_signals(self, settle=0.0):
        """What the signals said since the last call, then forgotten (the
        next daemon's day starts from nothing)."""
        if settle:
            self.spin(settle)
        reasons = {}
        for r in self.closed.values():
            reasons[str(r)] = reasons.get(str(r), 0) + 1
        out = {"acked": len(self.acked), "closed": len(self.closed), "never_closed": len(self.acked - set(self.closed)),
               "reasons": reasons, "actions": self.actions}
        self.named, self.acked, self.closed, self.actions = {}, set(), {}, 0
        return out


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
