// swift-tools-version:6.0
// Perch — a Wayland notification daemon. Module roles and the direction of
// dependencies are described in docs/architecture.md; in short: PerchCore is
// pure Swift and everything depends on it; the Platform, Render and Wayland
// layers never import each other (except Wayland → Platform for fds), and
// PerchDaemon is where they meet.
//
// Swift 6.0.3 or newer: the oldest Swift a distribution ships, Debian 13's
// swiftlang, with which `make test-trixie` builds and tests Perch (the host's
// `swift test` covers the newest). Code only 6.0.3 needs spelled a certain
// way says so where it is.
import PackageDescription

let package = Package(
    name: "Perch",
    products: [
        .executable(name: "perch", targets: ["perch"]),
        .executable(name: "perchctl", targets: ["perchctl"]),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client",
                       providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CSystemdBus", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // Only perch-share links it; the daemon never loads libpipewire.
        .systemLibrary(name: "CPipeWire", pkgConfig: "libpipewire-0.3",
                       providers: [.apt(["libpipewire-0.3-dev"])]),

        // libc calls Swift's Glibc module does not expose (timerfd, signalfd,
        // memfd_create, SO_PEERCRED need _GNU_SOURCE). Kept apart from the
        // protocol code so that perchctl does not link libwayland.
        .target(name: "CPerchSystem"),
        // Generated Wayland protocol code and interface-address getters.
        .target(name: "CPerchSupport", dependencies: ["CWaylandClient"]),
        // The sd-bus vtable of org.freedesktop.Notifications (C macros).
        .target(name: "CPerchBus", dependencies: ["CSystemdBus"]),
        // SVG icons: the daemon runs perch-svg on each document (memory, CPU
        // and time limits; librsvg is never in the daemon), and perch-svg
        // dlopens librsvg. zlib inflates .svgz; Perch maps it already.
        .target(name: "CRsvg", linkerSettings: [.linkedLibrary("z")]),
        .executableTarget(name: "perch-svg", dependencies: ["CPerchSystem", "CRsvg", "CCairo"], linkerSettings: [.linkedLibrary("m")]),
        // Sounds: the daemon starts perch-sound on the first sound, and
        // perch-sound dlopens libcanberra (and through it libpulse and the
        // decoders); none of them is ever in the daemon.
        .executableTarget(name: "perch-sound", linkerSettings: [.linkedLibrary("m")]),
        // Screen shares: while `while-sharing` is not `show`, the daemon runs
        // perch-share, which watches the PipeWire graph for a screencast
        // stream with a consumer and says "sharing 1" or "sharing 0".
        .executableTarget(name: "perch-share", dependencies: ["CPipeWire"]),
        // JPEG icons: libjpeg-turbo, dlopened on the first JPEG, behind a
        // setjmp error handler.
        .target(name: "CJPEG"),

        .target(name: "PerchCore"),
        // The body markup apps send, into what Pango accepts: cut to what a
        // card can show, the spec's <a> and <img> taken out, parsed by
        // Pango. A module of its own so that its fuzz target links it whole.
        .target(name: "PerchMarkup", dependencies: ["PerchCore", "CPangoCairo"]),
        .target(name: "PerchPlatform", dependencies: ["PerchCore", "CPerchSystem"]),
        .target(name: "PerchRender", dependencies: ["PerchCore", "PerchMarkup", "CCairo", "CPangoCairo", "CRsvg", "CJPEG"]),
        .target(name: "PerchWayland",
                dependencies: ["PerchCore", "PerchPlatform", "CWaylandClient", "CPerchSupport", "CXKBCommon"]),
        .target(name: "PerchBus", dependencies: ["PerchCore", "PerchPlatform", "CPerchBus", "CSystemdBus"]),
        // AT-SPI: the accessibility tree on the accessibility bus (a second
        // sd-bus connection), for screen readers.
        .target(name: "PerchAccess", dependencies: ["PerchCore", "PerchPlatform", "PerchBus", "CSystemdBus"]),
        .target(name: "PerchDaemon",
                dependencies: ["PerchCore", "PerchPlatform", "PerchRender", "PerchWayland", "PerchBus", "PerchAccess"]),
        .executableTarget(name: "perch", dependencies: ["PerchDaemon"]),
        .executableTarget(name: "perchctl", dependencies: ["PerchCore", "PerchPlatform"]),
        // Test tool: moves and clicks a virtual pointer (zwlr_virtual_pointer_v1)
        // so end-to-end tests can hover and click toasts on a headless sway.
        .executableTarget(name: "perch-test-pointer", dependencies: ["CWaylandClient", "CPerchSupport"],
                          path: "Tests/Tools/perch-test-pointer"),

        .testTarget(name: "PerchCoreTests", dependencies: ["PerchCore"]),
        .testTarget(name: "PerchPlatformTests", dependencies: ["PerchPlatform", "PerchCore"]),
        // The keyboard's key translation, against xkbcommon's own keymaps
        // and compose tables (xkb-data, libx11-data); no compositor.
        .testTarget(name: "PerchWaylandTests", dependencies: ["PerchWayland", "PerchCore", "CXKBCommon"]),
        .testTarget(name: "PerchBusTests", dependencies: ["PerchBus", "PerchCore", "PerchPlatform"]),
        // The daemon's turn (the executor, the end-of-turn order, the
        // effects' wiring) and the stages' rules, with fakes at their
        // edges: no compositor, no bus.
        .testTarget(name: "PerchDaemonTests",
                    dependencies: ["PerchDaemon", "PerchCore", "PerchPlatform", "PerchWayland"]),
        // Icon files are read as the daemon reads them, through Platform's
        // IconFiles (RegularFile), so the hostile-file tests test that policy.
        .testTarget(name: "PerchRenderTests", dependencies: ["PerchRender", "PerchMarkup", "PerchPlatform"],
                    resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)

// Every target depends directly on every target below it. SwiftPM reruns
// a release module's compile only when a *direct* dependency's
// .swiftmodule (or object) changes, and the compiler leaves a
// .swiftmodule untouched when its contents come out the same; yet a
// module bakes in the layout of every type it sees, through any import
// (perch's main allocates PerchCore's IconLocator itself). Listing only
// PerchDaemon, an incremental build after a change to a PerchCore
// class's stored properties left perch allocating the old, smaller size.
func closure(of target: Target, in targets: [String: Target]) -> [String] {
    var seen: [String] = []
    var pending = target.dependencies.compactMap(dependencyName)
    while let name = pending.popLast() {
        guard !seen.contains(name) else { continue }
        seen.append(name)
        pending += targets[name]?.dependencies.compactMap(dependencyName) ?? []
    }
    return seen
}

func dependencyName(_ dependency: Target.Dependency) -> String? {
    switch dependency {
    case .targetItem(let name, _), .byNameItem(let name, _): return name
    default: return nil
    }
}

let targetsByName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
for target in package.targets {
    let direct = target.dependencies.compactMap(dependencyName)
    target.dependencies += closure(of: target, in: targetsByName)
        .filter { !direct.contains($0) }
        .map { .target(name: $0) }
}
