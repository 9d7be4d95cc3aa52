/// What the user chose about quiet that outlives a restart but is not a
/// notification: when a mode turned on for a while ends (`perchctl mode
/// -a do-not-disturb --for 1h`), which live notifications are snoozed and
/// until when, and each app's standing choice from the center or
/// `perchctl apps` (muted: history only; allowed through do-not-disturb).
///
/// Kept in the state directory as `quiet`, one sealed line (`SealedLine`),
/// rewritten whole when it changes (a user's action, never a flood):
///
///     {"version":1,"mode_ends":{"do-not-disturb":1767229200},
///      "snoozes":{"42":1767226200},"apps":{"Chat":"muted"},"crc":"…"}
///
/// Times are Unix seconds, wall-clock time: a suspend counts, and a
/// restart ends them on time. Never trusted when read back: each entry is
/// checked on its own and a bad one is left out with a warning; the
/// bounds below hold whatever the file says.
public struct QuietChoices: Equatable, Sendable {
    /// When each mode that was turned on for a while goes off.
    public var modeEnds: [String: Int64] = [:]
    /// When each snoozed live notification comes back.
    public var snoozes: [UInt32: Int64] = [:]
    /// Each app's standing choice, by app name.
    public var apps: [String: AppChoice] = [:]

    public static let version = 1
    /// At most this many apps keep a choice (the oldest choice is not
    /// known; a new one past it is refused).
    public static let maximumApps = 256
    /// At most this many snoozes at once (no more than live notifications
    /// can be, `max-queued` and the stacks, but bounded on its own).
    public static let maximumSnoozes = 1_024
    /// An app's name longer than this (bytes) gets no choice.
    public static let maximumAppName = 256
    /// Times beyond a year from now are no time a person means.
    public static let longestWait: Int64 = 366 * 86_400

    public init() {}

    public var isEmpty: Bool { modeEnds.isEmpty && snoozes.isEmpty && apps.isEmpty }

    /// The earliest wall-clock time something ends: a mode or a snooze.
    public var nextEnd: Int64? {
        let modes = modeEnds.values.min()
        let snoozed = snoozes.values.min()
        switch (modes, snoozed) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }

    // MARK: The file

    /// The file's one line: sealed, with its newline.
    public func encoded() -> [UInt8] {
        let ends = JSONObject(modeEnds.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number(Double($0.value))) })
        let snoozed = JSONObject(snoozes.sorted { $0.key < $1.key }
            .map { (String($0.key), JSONValue.number(Double($0.value))) })
        let choices = JSONObject(apps.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value.rawValue)) })
        let object: JSONValue = .object(JSONObject([
            ("version", .number(Double(Self.version))), ("mode_ends", .object(ends)),
            ("snoozes", .object(snoozed)), ("apps", .object(choices)),
        ]))
        return SealedLine.line(JSON.serializedBytes(object))
    }

    /// Reads the file's bytes. A damaged line (a bad seal, not JSON, not
    /// an object, another version) is an error: the caller sets the file
    /// aside and starts with no choices. Entries that are wrong on their
    /// own are left out, each with a line in `warnings`.
    public init(file bytes: [UInt8], warnings: inout [String]) throws(StateError) {
        let line = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        guard !line.contains(UInt8(ascii: "\n")) else { throw StateError("more than one line") }
        let json: JSONValue
        switch SealedLine.read(line) {
        case .sealed(let value): json = value
        case .plain: throw StateError("the line has no valid checksum")
        case .damaged(let why): throw StateError(why)
        }
        guard let object = json.objectValue else { throw StateError("the line is not an object") }
        guard object["version"]?.intValue == Self.version else {
            throw StateError("\"version\" must be \(Self.version)")
        }
        self.init()
        for (name, value) in Self.members(object, "mode_ends", &warnings) {
            guard let end = Self.time(value) else {
                warnings.append("mode_ends.\(name): not a time; left out")
                continue
            }
            guard modeEnds.count < NotificationLimits.maximumModes else { break }
            modeEnds[name] = end
        }
        for (key, value) in Self.members(object, "snoozes", &warnings) {
            guard let id = UInt32(key), id != 0, let end = Self.time(value) else {
                warnings.append("snoozes.\(key): not a notification id and a time; left out")
                continue
            }
            guard snoozes.count < Self.maximumSnoozes else { break }
            snoozes[id] = end
        }
        for (name, value) in Self.members(object, "apps", &warnings) {
            guard let choice = value.stringValue.flatMap(AppChoice.init(rawValue:)),
                  name.utf8.count <= Self.maximumAppName else {
                warnings.append("apps.\(name.prefix(64)): not a choice (muted or allowed); left out")
                continue
            }
            guard apps.count < Self.maximumApps else { break }
            apps[name] = choice
        }
    }

    private static func members(_ object: JSONObject, _ key: String, _ warnings: inout [String]) -> JSONObject {
        guard let value = object[key] else { return JSONObject() }
        guard let members = value.objectValue else {
            warnings.append("\(key): not an object; left out")
            return JSONObject()
        }
        return members
    }

    private static func time(_ value: JSONValue) -> Int64? {
        guard let seconds = value.intValue, PersistentState.timeRange.contains(seconds) else { return nil }
        return Int64(seconds)
    }
}

/// An app's standing choice (`perchctl apps`, the center's entry menu).
public enum AppChoice: String, Sendable, CaseIterable {
    /// Its notifications go straight to history, unseen and unheard
    /// (critical ones too: the user asked).
    case muted
    /// Its notifications show and sound during do-not-disturb and
    /// inhibitions, as critical ones do.
    case allowed
}
