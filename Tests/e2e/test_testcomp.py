"""Smoke tests of perch-test-compositor itself, alone (a raw wire-protocol
client) and with the real daemon.

Run them with:   python3 Tests/e2e/test_testcomp.py [-k NAME] [-v]
(or add "test_testcomp" to run.py's MODULES).
"""

import os
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import testcomp  # noqa: E402
from harness import (BG, CARD_FILL, TestFailure, check, fmt, roughly, test,  # noqa: E402
                     whiteish, TESTCOMP)
from testcomp import ProtocolError, RawClient  # noqa: E402

# Tests of the test compositor itself: once.
COMPOSITORS = (TESTCOMP,)

# Layer-shell anchors.
TOP, BOTTOM, LEFT, RIGHT = 1, 2, 4, 8


def premul(r, g, b, a):
    return (a << 24) | ((r * a // 255) << 16) | ((g * a // 255) << 8) | (b * a // 255)


def layer_client(tc, width=20, height=10, anchor=TOP | RIGHT, margin=5, kb=0):
    """A raw client with a layer surface that got its first configure.
    Returns (client, ids dict, configure (serial, w, h))."""
    c = RawClient(tc)
    ids = {
        "comp": c.bind("wl_compositor", 4),
        "sub": c.bind("wl_subcompositor", 1),
        "shm": c.bind("wl_shm", 1),
        "shell": c.bind("zwlr_layer_shell_v1", 4),
    }
    ids["surface"] = c.new_id()
    c.request(ids["comp"], 0, "n", ids["surface"])                      # create_surface
    ids["layer"] = c.new_id()
    c.request(ids["shell"], 0, "nouus", ids["layer"], ids["surface"], 0, 3, "tc-test")
    c.request(ids["layer"], 0, "uu", width, height)                      # set_size
    c.request(ids["layer"], 1, "u", anchor)                              # set_anchor
    c.request(ids["layer"], 3, "iiii", margin, margin, margin, margin)   # set_margin
    c.request(ids["layer"], 4, "u", kb)                                  # keyboard
    c.request(ids["surface"], 6)                                         # commit
    c.roundtrip()
    confs = c.events_for(ids["layer"], 0)
    check(len(confs) == 1, "expected one configure after the initial commit, got %d" % len(confs))
    return c, ids, struct.unpack("<III", confs[0])


def toplevel_client(tc, title="tc-window", commit=True):
    """A raw client with an xdg_toplevel that made its initial commit (when
    `commit`). Returns (client, ids dict)."""
    c = RawClient(tc)
    ids = {
        "comp": c.bind("wl_compositor", 4),
        "shm": c.bind("wl_shm", 1),
        "wm": c.bind("xdg_wm_base", 1),
    }
    ids["surface"] = c.new_id()
    c.request(ids["comp"], 0, "n", ids["surface"])                      # create_surface
    ids["xdg"] = c.new_id()
    c.request(ids["wm"], 2, "no", ids["xdg"], ids["surface"])           # get_xdg_surface
    ids["toplevel"] = c.new_id()
    c.request(ids["xdg"], 1, "n", ids["toplevel"])                      # get_toplevel
    c.request(ids["toplevel"], 2, "s", title)                           # set_title
    if commit:
        c.request(ids["surface"], 6)                                     # commit
    c.roundtrip()
    return c, ids


def toplevel_configures(c, ids):
    """[(width, height, [states], serial)] from the configure sequences the
    client got (xdg_toplevel.configure then xdg_surface.configure)."""
    out = []
    for top, surf in zip(c.events_for(ids["toplevel"], 0), c.events_for(ids["xdg"], 0)):
        w, h, n = struct.unpack("<iiI", top[:12])
        states = list(struct.unpack("<%dI" % (n // 4), top[12:12 + n]))
        out.append((w, h, states, struct.unpack("<I", surf)[0]))
    return out


def surface_by_object(tc, client_obj_id, client_index=None):
    for s in tc.surfaces():
        if s["object"] == client_obj_id and (client_index is None or s["client"] == client_index):
            return s
    return None


# --------------------------------------------------------------------------
# The compositor alone


@test
def testcomp_starts_and_offers_globals(t):
    tc = testcomp.attach(t)
    outs = tc.command("outputs")["outputs"]
    check([o["name"] for o in outs] == ["HEADLESS-1"] and outs[0]["width"] == 1280,
          "default output should be HEADLESS-1 1280x720, is %s" % outs)
    check(tc.surfaces() == [], "no surfaces before any client")
    r = tc.command("no-such-command", check=False)
    check(r["ok"] is False and "unknown" in r["error"], "unknown command reply: %s" % r)
    check(tc.command("echo a b")["args"] == ["a", "b"], "echo")
    tc.sync(20)
    c = RawClient(tc)
    want = {"wl_compositor": 4, "wl_subcompositor": 1, "wl_shm": 1, "zwlr_layer_shell_v1": 4,
            "wp_viewporter": 1, "xdg_wm_base": 1, "wl_output": 4, "wl_seat": 5}
    got = {k: v for k, (_, v) in c.globals.items()}
    for iface, version in want.items():
        check(got.get(iface) == version, "global %s should be offered at v%d; globals: %s"
              % (iface, version, got))
    # wl_shm announces both formats on bind.
    shm = c.bind("wl_shm", 1)
    c.roundtrip()
    formats = sorted(struct.unpack("<I", p)[0] for p in c.events_for(shm, 0))
    check(formats == [0, 1], "wl_shm formats should be argb8888 (0), xrgb8888 (1); got %s" % formats)
    c.close()
    tc.wait_event("client_gone", since=0)


@test
def testcomp_layer_surface_buffers_and_subsurfaces(t):
    tc = testcomp.attach(t)
    c, ids, (serial, w, h) = layer_client(tc, 20, 10)
    check((w, h) == (20, 10), "configure should echo the requested 20x10, got %dx%d" % (w, h))
    c.request(ids["layer"], 6, "u", serial)                              # ack_configure
    red = premul(255, 0, 0, 255)
    half_white = premul(255, 255, 255, 128)
    pixels = [red] * (20 * 10)
    pixels[0] = half_white
    buf = c.shm_buffer(ids["shm"], 20, 10, pixels)
    c.request(ids["surface"], 1, "oii", buf, 0, 0)                       # attach
    c.request(ids["surface"], 9, "iiii", 0, 0, 20, 10)                   # damage_buffer
    c.request(ids["surface"], 6)
    c.roundtrip()
    check(c.events_for(buf, 0), "the buffer should be released after the commit copied it")
    s = surface_by_object(tc, ids["surface"])
    check(s and s["mapped"] and s["role"] == "layer", "layer surface should be mapped: %s" % s)
    check(s["position"] == [1280 - 20 - 5, 5], "top-right anchored 20x10 with margins 5 should "
          "sit at (1255, 5), is at %s" % s["position"])
    check(s["layer"]["acked_serial"] == serial and s["layer"]["namespace"] == "tc-test",
          "layer state: %s" % s["layer"])

    img = tc.dump(s["id"])
    check(img.pixel(5, 5) == (255, 0, 0), "dumped pixel should be red, is %s" % fmt(img.pixel(5, 5)))
    p0 = img.pixel(0, 0)
    want = tuple(round(128 + c_ * (255 - 128) / 255) for c_ in BG)
    check(roughly(p0, want, 2), "half-white over BG should be ~%s, is %s" % (fmt(want), fmt(p0)))
    rgba = tc.dump(s["id"], bg="rgba")
    check(rgba.pixel(0, 0)[3] == 128 and rgba.pixel(0, 0)[0] >= 254, "rgba dump %s" % (rgba.pixel(0, 0),))
    shot = tc.screenshot()
    check(shot.pixel(1255 + 5, 5 + 5) == (255, 0, 0) and shot.pixel(1254, 10) == BG,
          "screenshot should show the red surface at (1255,5): %s %s"
          % (fmt(shot.pixel(1260, 10)), fmt(shot.pixel(1254, 10))))

    # A synchronized subsurface: its commit waits for the parent's.
    child = c.new_id()
    c.request(ids["comp"], 0, "n", child)
    sub = c.new_id()
    c.request(ids["sub"], 1, "noo", sub, child, ids["surface"])
    c.request(sub, 1, "ii", 3, 4)                                        # set_position
    green = c.shm_buffer(ids["shm"], 4, 4, [premul(0, 255, 0, 255)] * 16)
    c.request(child, 1, "oii", green, 0, 0)
    c.request(child, 6)
    c.roundtrip()
    cs = surface_by_object(tc, child)
    check(cs["has_cached"] and cs["buffer"] is None and not cs["mapped"],
          "a sync subsurface's commit should be cached until the parent commits: %s" % cs)
    frame_cb = c.new_id()
    c.request(ids["surface"], 3, "n", frame_cb)                          # frame
    c.request(ids["surface"], 6)
    c.roundtrip()
    cs = surface_by_object(tc, child)
    check(cs["mapped"] and cs["buffer"] == [4, 4] and cs["position"] == [3, 4],
          "after the parent's commit the subsurface should be mapped at (3,4): %s" % cs)
    check(cs["global"] == [1258, 9], "subsurface global position %s, expected [1258, 9]" % cs["global"])
    hit = tc.pointer_motion(1258 + 1, 9 + 1)
    check(hit["surface"] == cs["id"] and hit["x"] == 1 and hit["y"] == 1,
          "the pointer over the subsurface should enter it at (1,1): %s" % hit)
    check(not c.events_for(frame_cb, 0), "frame callback fired before `frame`")
    r = tc.frame(1234)
    c.roundtrip()
    done = c.events_for(frame_cb, 0)
    check(r["fired"] == 1 and done and struct.unpack("<I", done[0])[0] == 1234,
          "frame 1234 should fire the callback with time 1234: %s %s" % (r, done))

    # Output removal closes the layer surface.
    tc.command("output add HEADLESS-2 800 600")
    tc.command("output remove HEADLESS-1")
    c.roundtrip()
    check(c.events_for(ids["layer"], 1), "the layer surface should get closed when its output goes")
    s = surface_by_object(tc, ids["surface"])
    check(s["layer"]["closed"] and not s["mapped"], "closed layer surface state: %s" % s)
    tc.check_no_protocol_errors()
    c.close()


@test
def testcomp_survives_protocol_errors(t):
    tc = testcomp.attach(t)

    def expect_error(what, fn, interface, code):
        m = tc.mark()
        try:
            fn()
            raise TestFailure("%s: no protocol error" % what)
        except ProtocolError:
            pass
        ev = tc.wait_event("protocol_error", since=m)
        check(ev["interface"] == interface and ev["code"] == code,
              "%s: expected error %d on %s, got %s" % (what, code, interface, ev))
        tc.wait_event("client_gone", since=m)
        check(tc.command("echo alive")["ok"], "compositor answers after %s" % what)

    def buffer_before_ack():
        c, ids, _ = layer_client(tc)
        buf = c.shm_buffer(ids["shm"], 20, 10, [0] * 200)
        c.request(ids["surface"], 1, "oii", buf, 0, 0)
        c.request(ids["surface"], 6)
        c.roundtrip()
    expect_error("buffer before ack_configure", buffer_before_ack, "zwlr_layer_surface_v1", 2)

    def bad_serial():
        c, ids, (serial, _, _) = layer_client(tc)
        c.request(ids["layer"], 6, "u", serial + 1000)
        c.roundtrip()
    expect_error("ack_configure with an unknown serial", bad_serial, "zwlr_layer_surface_v1", 0)

    def zero_width_without_anchors():
        layer_client(tc, width=0, anchor=TOP | RIGHT)
    expect_error("width 0 without left+right anchors", zero_width_without_anchors,
                 "zwlr_layer_surface_v1", 1)

    def bad_scale():
        c = RawClient(tc)
        comp = c.bind("wl_compositor", 4)
        s = c.new_id()
        c.request(comp, 0, "n", s)
        c.request(s, 8, "i", 0)
        c.roundtrip()
    expect_error("set_buffer_scale(0)", bad_scale, "wl_surface", 0)

    def own_parent():
        c = RawClient(tc)
        comp, subc = c.bind("wl_compositor", 4), c.bind("wl_subcompositor", 1)
        s = c.new_id()
        c.request(comp, 0, "n", s)
        c.request(subc, 1, "noo", c.new_id(), s, s)
        c.roundtrip()
    expect_error("a surface as its own parent", own_parent, "wl_subcompositor", 0)

    def odd_size_for_scale():
        c, ids, (serial, _, _) = layer_client(tc, 21, 10)
        c.request(ids["layer"], 6, "u", serial)
        buf = c.shm_buffer(ids["shm"], 21, 10, [0] * 210)
        c.request(ids["surface"], 8, "i", 2)
        c.request(ids["surface"], 1, "oii", buf, 0, 0)
        c.request(ids["surface"], 6)
        c.roundtrip()
    expect_error("a 21x10 buffer at scale 2", odd_size_for_scale, "wl_surface", 2)

    # A client that vanishes mid-session with surfaces, a subsurface and a
    # pending frame callback leaves nothing behind.
    c, ids, (serial, _, _) = layer_client(tc)
    c.request(ids["layer"], 6, "u", serial)
    buf = c.shm_buffer(ids["shm"], 20, 10, [premul(0, 0, 255, 255)] * 200)
    child = c.new_id()
    c.request(ids["comp"], 0, "n", child)
    c.request(ids["sub"], 1, "noo", c.new_id(), child, ids["surface"])
    c.request(ids["surface"], 3, "n", c.new_id())
    c.request(ids["surface"], 1, "oii", buf, 0, 0)
    c.request(ids["surface"], 6)
    c.roundtrip()
    tc.pointer_motion(1260, 10)
    tc.command("keyboard focus %d" % surface_by_object(tc, ids["surface"], None)["id"])
    tc.touch_down(1, 1260, 10)
    m = tc.mark()
    c.close()
    tc.wait_event("client_gone", since=m)
    tc.sync(20)
    check(tc.surfaces() == [], "surfaces left after the client went: %s" % tc.surfaces())
    tc.frame()
    tc.touch_up(1)
    tc.command("touch cancel")
    tc.pointer_motion(1200, 50)
    check(tc.alive(), "the compositor died")


@test
def testcomp_seat_focus_keys_and_touch(t):
    tc = testcomp.attach(t)
    c, ids, (serial, _, _) = layer_client(tc, 20, 10, kb=2)              # on_demand
    seat = c.bind("wl_seat", 5)
    kbd, touch = c.new_id(), c.new_id()
    c.request(seat, 1, "n", kbd)                                         # get_keyboard
    c.request(seat, 2, "n", touch)                                       # get_touch
    c.request(ids["layer"], 6, "u", serial)
    buf = c.shm_buffer(ids["shm"], 20, 10, [premul(9, 9, 9, 255)] * 200)
    c.request(ids["surface"], 1, "oii", buf, 0, 0)
    c.request(ids["surface"], 6)
    c.roundtrip()
    check(c.events_for(kbd, 0), "wl_keyboard.keymap should come with the keyboard")
    sid = surface_by_object(tc, ids["surface"])["id"]
    check(tc.command("key tap Escape")["focus"] is None, "no keyboard focus before a press")

    m = tc.mark()
    tc.pointer_motion(1256, 6)
    tc.click()
    tc.wait_event("keyboard_enter", since=m, surface=sid)
    r = tc.key("Escape")
    check(r["code"] == 1 and r["focus"] == sid, "Escape should be evdev 1 to the surface: %s" % r)
    tc.key("Shift_L", "press")
    tc.key("Shift_L", "release")
    c.roundtrip()
    keys = [struct.unpack("<IIII", p) for p in c.events_for(kbd, 3)]
    check([(k[2], k[3]) for k in keys] == [(1, 1), (1, 0), (42, 1), (42, 0)],
          "key events (code, state): %s" % [(k[2], k[3]) for k in keys])
    mods = [struct.unpack("<IIIII", p)[1] for p in c.events_for(kbd, 4)]
    check(1 in mods and mods[-1] == 0, "Shift should show in wl_keyboard.modifiers: %s" % mods)

    m = tc.mark()
    tc.pointer_motion(100, 100)
    tc.click()
    tc.wait_event("keyboard_leave", since=m, surface=sid)

    r = tc.touch_down(5, 1257, 8)
    check(r["surface"] == sid, "touch down on the surface: %s" % r)
    tc.touch_motion(5, 1300, 30)          # outside: still goes to the same surface
    tc.touch_up(5)
    c.roundtrip()
    down = c.events_for(touch, 0)
    check(down and struct.unpack("<IIIiii", down[0])[3:] == (5, 2 * 256, 3 * 256),
          "wl_touch.down should carry id 5 at (2,3): %s" % [struct.unpack("<IIIiii", d) for d in down])
    motion = [struct.unpack("<Iiii", p) for p in c.events_for(touch, 2)]
    check(motion and motion[0][1:] == (5, 45 * 256, 25 * 256),
          "wl_touch.motion should be surface-local (45,25): %s" % motion)
    check(len(c.events_for(touch, 1)) == 1 and len(c.events_for(touch, 3)) == 3,
          "one up and a frame after each event expected")

    # The touch press focused it too (on_demand); a press on nothing drops
    # that, then exclusive on the overlay layer takes the focus at once.
    m = tc.mark()
    tc.click()
    tc.wait_event("keyboard_leave", since=m, surface=sid)
    m = tc.mark()
    c.request(ids["layer"], 4, "u", 1)
    c.request(ids["surface"], 6)
    c.roundtrip()
    tc.wait_event("keyboard_enter", since=m, surface=sid)
    tc.check_no_protocol_errors()
    c.close()


@test
def testcomp_an_xdg_toplevel_fills_the_output_and_takes_touch_and_keys(t):
    """What a nested compositor's window needs: the initial commit gets a
    configure at the output's size (activated), the first buffer after the
    ack maps it at the output's top-left, frame callbacks fire and buffers
    are released, it gets the keyboard and the touch (surface-local), a
    null buffer unmaps it, and a `configure` resizes it."""
    tc = testcomp.attach(t)
    c, ids = toplevel_client(tc)
    seat = c.bind("wl_seat", 5)
    kbd, touch = c.new_id(), c.new_id()
    c.request(seat, 1, "n", kbd)                                         # get_keyboard
    c.request(seat, 2, "n", touch)                                       # get_touch
    c.roundtrip()
    confs = toplevel_configures(c, ids)
    check(len(confs) == 1 and confs[0][:3] == (1280, 720, [4]),
          "the initial commit should get one configure at 1280x720, activated (4): %s" % confs)
    serial = confs[0][3]
    s = surface_by_object(tc, ids["surface"])
    check(s["role"] == "toplevel" and not s["mapped"] and s["toplevel"]["title"] == "tc-window",
          "a configured toplevel without a buffer is not mapped: %s" % s)

    c.request(ids["xdg"], 4, "u", serial)                                # ack_configure
    green = premul(0, 255, 0, 255)
    buf = c.shm_buffer(ids["shm"], 64, 48, [green] * (64 * 48))
    frame_cb = c.new_id()
    c.request(ids["surface"], 3, "n", frame_cb)                          # frame
    c.request(ids["surface"], 1, "oii", buf, 0, 0)
    c.request(ids["surface"], 6)
    c.roundtrip()
    s = surface_by_object(tc, ids["surface"])
    check(s["mapped"] and s["global"] == [0, 0] and s["outputs"] == ["HEADLESS-1"]
          and s["toplevel"]["acked_serial"] == serial,
          "after the ack and a buffer it should be mapped at (0,0) on HEADLESS-1: %s" % s)
    check(c.events_for(buf, 0), "the buffer should be released after the commit copied it")
    check(c.events_for(kbd, 1), "a toplevel that maps should get the keyboard (wl_keyboard.enter)")
    shot = tc.screenshot()
    check(shot.pixel(10, 10) == (0, 255, 0) and shot.pixel(70, 10) == BG,
          "the screenshot should show the 64x48 window at the top-left: %s %s"
          % (fmt(shot.pixel(10, 10)), fmt(shot.pixel(70, 10))))
    tc.frame(777)
    c.roundtrip()
    done = c.events_for(frame_cb, 0)
    check(done and struct.unpack("<I", done[0])[0] == 777, "frame 777 should fire its callback: %s" % done)

    # Touch lands on it, surface-local.
    r = tc.touch_down(3, 20, 30)
    check(r["surface"] == s["id"], "touch on the window: %s" % r)
    tc.touch_motion(3, 25, 33)
    tc.touch_up(3)
    c.roundtrip()
    down = [struct.unpack("<IIIiii", d) for d in c.events_for(touch, 0)]
    motion = [struct.unpack("<Iiii", d) for d in c.events_for(touch, 2)]
    check(down and down[0][3:] == (3, 20 * 256, 30 * 256) and motion and motion[0][1:] == (3, 25 * 256, 33 * 256),
          "wl_touch down (3, 20, 30) and motion (3, 25, 33) expected: %s %s" % (down, motion))

    # A `configure` resizes it; acking it and a new buffer apply it.
    r = tc.command("configure %d 800 600" % s["id"])
    c.roundtrip()
    confs = toplevel_configures(c, ids)
    check(confs[-1][:2] == (800, 600) and confs[-1][3] == r["serial"],
          "`configure` should send 800x600 with its serial: %s %s" % (confs, r))

    # A null buffer unmaps it; the next commit is an initial one again.
    c.request(ids["surface"], 1, "oii", 0, 0, 0)
    c.request(ids["surface"], 6)
    c.roundtrip()
    s = surface_by_object(tc, ids["surface"])
    check(not s["mapped"] and not s["toplevel"]["configured"], "a null buffer should unmap it: %s" % s)
    n = len(toplevel_configures(c, ids))
    c.request(ids["surface"], 6)
    c.roundtrip()
    check(len(toplevel_configures(c, ids)) == n + 1, "the commit after an unmap should get a configure")

    # Popups are dismissed at once.
    pos = c.new_id()
    c.request(ids["wm"], 1, "n", pos)                                    # create_positioner
    c.request(pos, 1, "ii", 10, 10)                                      # set_size
    c.request(pos, 2, "iiii", 0, 0, 1, 1)                                # set_anchor_rect
    psurf, pxdg, popup = c.new_id(), c.new_id(), c.new_id()
    c.request(ids["comp"], 0, "n", psurf)
    c.request(ids["wm"], 2, "no", pxdg, psurf)
    c.request(pxdg, 2, "noo", popup, ids["xdg"], pos)                    # get_popup
    c.roundtrip()
    check(c.events_for(popup, 1), "a popup should be dismissed (popup_done) at once")

    # The client answers a ping.
    m = tc.mark()
    check(tc.command("ping")["pinged"] == 1, "one xdg_wm_base to ping")
    c.roundtrip()
    pings = c.events_for(ids["wm"], 0)
    check(len(pings) == 1, "the client should get one ping: %s" % pings)
    c.request(ids["wm"], 3, "u", struct.unpack("<I", pings[0])[0])      # pong
    c.roundtrip()
    tc.wait_event("pong", since=m)
    tc.check_no_protocol_errors()
    c.close()


@test
def testcomp_xdg_shell_rules_are_protocol_errors(t):
    tc = testcomp.attach(t)

    def expect_error(what, fn, interface, code):
        m = tc.mark()
        try:
            fn()
            raise TestFailure("%s: no protocol error" % what)
        except ProtocolError:
            pass
        ev = tc.wait_event("protocol_error", since=m)
        check(ev["interface"] == interface and ev["code"] == code,
              "%s: expected error %d on %s, got %s" % (what, code, interface, ev))
        tc.wait_event("client_gone", since=m)

    def buffer_before_ack():
        c, ids = toplevel_client(tc)
        buf = c.shm_buffer(ids["shm"], 4, 4, [0] * 16)
        c.request(ids["surface"], 1, "oii", buf, 0, 0)
        c.request(ids["surface"], 6)
        c.roundtrip()
    expect_error("a buffer before the first ack", buffer_before_ack, "xdg_surface", 3)

    def bad_serial():
        c, ids = toplevel_client(tc)
        serial = toplevel_configures(c, ids)[0][3]
        c.request(ids["xdg"], 4, "u", serial + 1000)
        c.roundtrip()
    expect_error("an ack of a serial never sent", bad_serial, "xdg_surface", 4)

    def commit_without_role():
        c = RawClient(tc)
        comp, wm = c.bind("wl_compositor", 4), c.bind("xdg_wm_base", 1)
        s, x = c.new_id(), c.new_id()
        c.request(comp, 0, "n", s)
        c.request(wm, 2, "no", x, s)
        c.request(s, 6)
        c.roundtrip()
    expect_error("a commit before a role object", commit_without_role, "xdg_surface", 1)

    def xdg_surface_before_toplevel():
        c, ids = toplevel_client(tc, commit=False)
        c.request(ids["xdg"], 0)                                         # destroy
        c.roundtrip()
    expect_error("the xdg_surface destroyed before its toplevel", xdg_surface_before_toplevel,
                 "xdg_surface", 6)

    def layer_surface_too():
        c = RawClient(tc)
        comp, wm = c.bind("wl_compositor", 4), c.bind("xdg_wm_base", 1)
        shell = c.bind("zwlr_layer_shell_v1", 4)
        s = c.new_id()
        c.request(comp, 0, "n", s)
        c.request(wm, 2, "no", c.new_id(), s)
        c.request(shell, 0, "nouus", c.new_id(), s, 0, 3, "x")
        c.roundtrip()
    expect_error("a layer surface from an xdg_surface's wl_surface", layer_surface_too, "zwlr_layer_shell_v1", 0)

    def incomplete_positioner():
        c, ids = toplevel_client(tc)
        pos = c.new_id()
        c.request(ids["wm"], 1, "n", pos)
        c.request(pos, 1, "ii", 10, 10)                                  # a size, no anchor rect
        s, x = c.new_id(), c.new_id()
        c.request(ids["comp"], 0, "n", s)
        c.request(ids["wm"], 2, "no", x, s)
        c.request(x, 2, "noo", c.new_id(), ids["xdg"], pos)
        c.roundtrip()
    expect_error("a popup from an incomplete positioner", incomplete_positioner, "xdg_wm_base", 5)

    def wm_base_first():
        c, ids = toplevel_client(tc, commit=False)
        c.request(ids["wm"], 0)                                          # destroy
        c.roundtrip()
    expect_error("xdg_wm_base destroyed before its surfaces", wm_base_first, "xdg_wm_base", 1)
    check(tc.command("echo alive")["ok"] and tc.surfaces() == [],
          "the compositor should answer with nothing left: %s" % tc.surfaces())


# --------------------------------------------------------------------------
# With the real daemon


def perch_toast(t, tc, *post_args, **post_kw):
    p = t.start_perch()
    nid = p.post(*post_args, **post_kw)
    stage = tc.wait_layer_surface(namespace="notifications")
    toast = tc.wait_toast(stage["id"])
    return p, nid, stage, toast


@test
def testcomp_perch_maps_a_stage_and_a_toast(t):
    tc = testcomp.attach(t)
    p, nid, stage, toast = perch_toast(t, tc, "Hello from Perch", "A one-line body", timeout=30)
    L = stage["layer"]
    problems = []

    def expect(cond, what):
        if not cond:
            problems.append(what)

    expect(sorted(L["anchors"]) == ["bottom", "right", "top"], "anchors %s" % L["anchors"])
    expect(L["requested_size"] == [300, 0], "requested size %s" % L["requested_size"])
    expect(L["configured_size"] == [300, 700], "configured size %s" % L["configured_size"])
    expect(L["configured"] and L["acked_serial"] == L["last_serial"], "not acked: %s" % L)
    expect(L["keyboard"] == "none", "keyboard interactivity %s" % L["keyboard"])
    expect(stage["input"] == [], "stage input region should be empty, is %s" % stage["input"])
    expect(stage["position"] == [970, 10], "stage at %s, expected [970, 10]" % stage["position"])
    if stage["viewport"] is not None:
        expect(stage["buffer"] == [1, 1] and stage["viewport"]["destination"] == [300, 700],
               "stage content: buffer %s viewport %s" % (stage["buffer"], stage["viewport"]))
    expect(toast["buffer"][0] == 300 and 30 <= toast["buffer"][1] <= 120,
           "toast buffer %s" % toast["buffer"])

    img = tc.dump(toast["id"])
    w, h = img.width, img.height
    mid, cx = h // 2, w // 2
    for pts, what in [([(cx, 0), (cx, 1)], "top"), ([(cx, h - 1), (cx, h - 2)], "bottom"),
                      ([(0, mid), (1, mid)], "left"), ([(w - 1, mid), (w - 2, mid)], "right")]:
        pxs = [img.pixel(x, y) for x, y in pts]
        expect(any(whiteish(px, 220) for px in pxs),
               "%s border %s should be white, is %s" % (what, pts, ", ".join(fmt(px) for px in pxs)))
    for x, y in [(5, mid), (w - 6, mid), (cx, h - 6)]:
        expect(roughly(img.pixel(x, y), CARD_FILL, 12), "interior (%d,%d) should be ~%s, is %s"
               % (x, y, fmt(CARD_FILL), fmt(img.pixel(x, y))))
    expect(roughly(img.pixel(0, 0), BG, 40), "corner (0,0) should be cut by the radius, is %s"
           % fmt(img.pixel(0, 0)))
    n = img.count((3, 3, w - 4, h - 4), lambda px: whiteish(px, 200))
    expect(n >= 30, "expected text (>= 30 white-ish pixels), found %d" % n)
    check(not problems, "toast %s: %s" % (toast["id"], "; ".join(problems)))
    tc.check_no_protocol_errors()


@test
def testcomp_frames_drive_the_slide(t):
    tc = testcomp.attach(t)
    p, nid, stage, toast = perch_toast(t, tc, "Sliding in", "frame by frame", timeout=30)
    sid, tid = stage["id"], toast["id"]
    xs = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        m = tc.mark()
        fired = tc.frame()["fired"]
        if fired == 0:
            if xs and xs[-1] == 0:
                break
            time.sleep(0.02)
            continue
        ev = tc.wait_event("commit", since=m, surface=sid, pred=lambda e: "children" in e, timeout=3)
        pos = [c["x"] for c in ev["children"] if c["surface"] == tid]
        if pos:
            xs.append(pos[0])
        time.sleep(0.03)
    check(xs, "no stage commit answered a frame")
    check(xs[-1] == 0, "the toast should come to rest at x=0; x per frame: %s" % xs)
    backwards = [(a, b) for a, b in zip(xs, xs[1:]) if b > a]
    check(not backwards, "the toast should only move left; x per frame: %s" % xs)
    check(len(set(xs)) >= 3, "the slide should take several frames; x per frame: %s" % xs)
    final = tc.surface(tid)
    check(final["position"][0] == 0 and final["global"] == [970, 10],
          "toast at rest: %s / %s" % (final["position"], final["global"]))
    t.notes.append("x per frame: %s" % xs)
    tc.check_no_protocol_errors()


@test
def testcomp_pointer_hover_keeps_the_toast(t):
    tc = testcomp.attach(t)
    tc.command("autoframe 16")
    p, nid, stage, toast = perch_toast(t, tc, "Hover me", "two seconds", timeout=2)

    def at_rest():
        s = tc.surface(toast["id"])
        return s if s["position"][0] == 0 else None
    s = tc.wait_for(at_rest, 3, what="the toast at rest")
    gx, gy = s["global"]
    m = tc.mark()
    r = tc.pointer_motion(gx + 150, gy + s["size"][1] // 2)
    check(tc.lands_on(r, toast["id"]), "the pointer should be over the toast: %s" % r)
    tc.wait_event("pointer_enter", since=m, surface=r["surface"])
    time.sleep(3.0)
    ids = [n.get("id") for n in p.list()]
    check(nid in ids, "a hovered toast with a 2 s timeout was gone after 3 s: %s" % ids)
    m = tc.mark()
    tc.pointer_motion(100, 400)
    tc.wait_event("pointer_leave", since=m, surface=tc.input_of(toast["id"]))
    gone = tc.wait_for(lambda: nid not in [n.get("id") for n in p.list()], 5,
                       what="the toast to expire after the pointer left")
    check(gone, "unreachable")
    tc.check_no_protocol_errors()


@test
def testcomp_touch_and_keys_reach_perch_without_errors(t):
    tc = testcomp.attach(t)
    tc.command("autoframe 16")
    p, nid, stage, toast = perch_toast(t, tc, "Touch me", "gently", timeout=30)
    s = tc.wait_for(lambda: (lambda x: x if x["position"][0] == 0 else None)(tc.surface(toast["id"])),
                    3, what="the toast at rest")
    gx, gy = s["global"]
    r = tc.touch_down(0, gx + 20, gy + 20)
    check(tc.lands_on(r, toast["id"]), "touch down should land on the toast: %s" % r)
    r = tc.touch_motion(0, gx + 25, gy + 22)
    check((r["x"], r["y"]) == (25, 22), "touch motion should be surface-local: %s" % r)
    tc.touch_up(0)
    tc.key("Escape")
    tc.sync(100)
    check(p.proc.poll() is None, "perch exited after touch/keys: %s" % p.log()[-500:])
    tc.check_no_protocol_errors()


if __name__ == "__main__":
    import run
    run.MODULES = []   # this module's tests registered themselves above
    sys.exit(run.main())
