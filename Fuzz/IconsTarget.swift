// Fuzz target: the icon readers and lookup (PerchCore/Icons/): theme
// indexes (`IconThemeIndex.parse`, over `DesktopKeyFile`), icon sources as
// senders write them (`IconSource.parse`: paths, file:// URIs, names), and
// `IconLocator` looking a name and a desktop entry up in a file tree held
// in memory, built from the input.
//
// The input: size and scale bytes, the icon text, a desktop-entry hint,
// then up to 12 files as path and contents (all cut at 0 bytes). Paths
// are absolute under `/`: theme bases `/i` and `/h`, unthemed `/p`,
// applications `/a`, `icon-path` `/x`; the themes asked for are `T` and
// `hicolor`. Properties:
// - every reader returns; nothing crashes, loops or stalls (-timeout);
// - an index's directories (files named index.theme) are unique plain
//   relative paths with sizes, scales and bounds in range, no more than
//   the maximum; a key file (those and .desktop files) reports a bounded
//   number of problems and keeps within its group and key limits;
// - a parsed source is an absolute path without NUL, or a valid name;
// - what the locator finds is in the tree (a file, or a directory a
//   listing showed); asking again gives the same answer and reports
//   nothing new (each problem is reported once);
// - the theme chain has no theme twice and stays within its maximum;
// - file reads and listings per lookup stay bounded;
// - the sound theme lookup (PerchCore/Sounds/) over the same tree, with
//   the icon text as the sound name and theme `T`: an index keeps its
//   bounds, what is found is in the tree, twice the same answer with
//   nothing told twice, a chain without repeats within its maximum;
// - a file named .flatpak-info (a sandbox's, read over the same key-file
//   parser: `FlatpakInfo.appID`) gives a valid app id of at most 255
//   bytes or a problem whose text has no control character.
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIcons(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let iconSize = Int(input.byte())
    let scale = Int(input.byte() % 4)
    let icon = input.text()
    let hint = input.text()
    let tree = MemoryTree()
    while !input.isAtEnd && tree.files.count < 12 {
        let path = "/" + input.text()
        tree.files[path] = input.part()
    }

    for (path, bytes) in tree.files {
        if path.hasSuffix("/index.theme") {
            checkIndex(bytes, path)
        } else if path.hasSuffix(".desktop") {
            checkKeyFile(bytes, path)
        } else if path.hasSuffix(".flatpak-info") {
            checkFlatpakInfo(bytes)
        }
    }

    if let parsed = IconSource.parse(icon) {
        switch parsed {
        case .success(.file(let path)):
            require(path.hasPrefix("/") && !path.utf8.contains(0), "a file source that is no absolute path: \(path)")
        case .success(.themed(let name)):
            require(IconName.problem(with: name) == nil, "a themed source with a bad name: \(name)")
        case .failure:
            break
        }
    }

    var options = IconLocator.Options()
    options.formats = [.png, .svg, .xpm]
    let paths = IconSearchPaths(extraDirectories: ["/x"], themeBases: ["/x", "/i", "/h"],
                                unthemedDirectories: ["/i", "/p"], applicationDirectories: ["/a"])
    let locator = IconLocator(themes: ["T", "hicolor"], paths: paths, fileSystem: tree, options: options)

    let first = locator.locate(icon, size: iconSize, scale: scale)
    require(tree.reads <= 256 && tree.listings <= 1024,
            "one lookup read \(tree.reads) files and listed \(tree.listings) directories")
    if let file = first.file {
        // A listing names directories too, so a directory called
        // `mail-unread.png` is found like a file; reading it is refused
        // later, with its reason, as any unreadable icon is.
        require(tree.has(file.path) || file.origin == .given, "found a path not in the tree: \(file.path)")
    }
    let second = locator.locate(icon, size: iconSize, scale: scale)
    require(second.file == first.file, "two lookups, two answers")
    require(second.diagnostics.isEmpty, "problems reported twice: \(second.diagnostics)")

    let chain = locator.themeChain()
    require(Set(chain.themes).count == chain.themes.count, "a theme twice in the chain: \(chain.themes)")
    require(chain.themes.count <= options.maximumThemes, "\(chain.themes.count) themes in the chain")

    let (source, _) = locator.desktopEntryIcon(hint)
    if case .themed(let name)? = source {
        require(IconName.problem(with: name) == nil, "a desktop entry's bad icon name got through: \(name)")
    }
    checkSounds(named: icon, in: tree)
    return 0
}

private func checkSounds(named name: String, in tree: MemoryTree) {
    for (path, bytes) in tree.files where path.hasSuffix("/index.theme") {
        guard let index = SoundThemeIndex.parse(bytes).index else { continue }
        require(index.directories.count <= SoundThemeIndex.maximumDirectories, "\(index.directories.count) sound directories")
    }
    let sounds = SoundThemeLocator(theme: "T", paths: SoundSearchPaths(bases: ["/i", "/h"]), locale: "de_DE",
                                   fileSystem: tree)
    let first = sounds.locate(name)
    switch first {
    case .file(let file): require(tree.has(file.path), "found a sound not in the tree: \(file.path)")
    case .disabled(let path): require(tree.has(path), "a .disabled not in the tree: \(path)")
    case .notFound: break
    }
    _ = sounds.takeDiagnostics()
    require(sounds.locate(name) == first, "two sound lookups, two answers")
    require(sounds.takeDiagnostics().isEmpty, "sound problems reported twice")
    let chain = sounds.themeChain()
    require(Set(chain).count == chain.count, "a sound theme twice in the chain: \(chain)")
    require(chain.count <= SoundThemeLocator.maximumThemes, "\(chain.count) sound themes in the chain")
}

private func checkKeyFile(_ bytes: [UInt8], _ path: String) {
    let keyFile = DesktopKeyFile(parsing: bytes)
    require(keyFile.diagnostics.count <= DesktopKeyFile.Limits().maximumDiagnostics + 1,
            "\(keyFile.diagnostics.count) diagnostics for \(path)")
    require(keyFile.groups.count <= DesktopKeyFile.Limits().maximumGroups, "\(keyFile.groups.count) groups")
    require(keyFile.groups.values.allSatisfy { $0.count <= DesktopKeyFile.Limits().maximumKeysPerGroup },
            "a group with more keys than the limit")
}

private func checkFlatpakInfo(_ bytes: [UInt8]) {
    switch FlatpakInfo.appID(in: bytes) {
    case .success(let name):
        require(FlatpakInfo.problem(withAppID: name) == nil && name.utf8.count <= 255, "a bad app id: \(name)")
    case .failure(let problem):
        require(!problem.message.isEmpty, "an empty problem")
        require(!problem.message.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "a problem with a control character: \(problem.message.debugDescription)")
    }
}

private func checkIndex(_ bytes: [UInt8], _ path: String) {
    checkKeyFile(bytes, path)
    guard let index = IconThemeIndex.parse(bytes).index else { return }
    require(index.directories.count <= IconThemeIndex.maximumDirectories, "\(index.directories.count) directories")
    require(Set(index.directories.map(\.path)).count == index.directories.count, "a directory twice")
    for directory in index.directories {
        require(IconThemeIndex.isSafeRelativePath(directory.path), "unsafe directory \(directory.path)")
        require((1...IconThemeIndex.maximumSize).contains(directory.size), "size \(directory.size)")
        require((1...IconThemeIndex.maximumScale).contains(directory.scale), "scale \(directory.scale)")
        require(directory.minimumSize <= directory.maximumSize, "MinSize above MaxSize in \(directory.path)")
        _ = directory.distance(size: 48, scale: 2)
        _ = directory.matches(size: 48, scale: 2)
    }
}

/// A file tree in memory; directories are implied by the files under them.
private final class MemoryTree: IconFileSystem {
    var files: [String: [UInt8]] = [:]
    private(set) var reads = 0
    private(set) var listings = 0

    func revalidate() -> UInt64 { 1 }

    /// A file of the tree, or a directory implied by a file under it.
    func has(_ path: String) -> Bool {
        files[path] != nil || files.keys.contains { $0.hasPrefix(path + "/") }
    }

    func listing(of directory: String) -> IconDirectoryListing {
        listings += 1
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var names: Set<String> = []
        for path in files.keys where path.hasPrefix(prefix) {
            let name = path.dropFirst(prefix.count).prefix { $0 != "/" }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names.isEmpty ? .absent : .names(names)
    }

    func contents(of path: String, limit: Int) -> IconFileContents {
        reads += 1
        guard let bytes = files[path] else { return .absent }
        return bytes.count <= limit ? .bytes(bytes) : .unusable("larger than \(limit) bytes")
    }
}
