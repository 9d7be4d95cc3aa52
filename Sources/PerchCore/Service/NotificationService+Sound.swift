/// What a sender asked to hear with a notification (the spec's sound
/// hints, or `perchctl post --sound`).
public struct SoundRequest: Equatable, Sendable {
    public var sound: NotificationSound?
    /// `suppress-sound`: nothing plays, whatever the config says.
    public var suppressed: Bool

    public init(sound: NotificationSound? = nil, suppressed: Bool = false) {
        self.sound = sound
        self.suppressed = suppressed
    }
}

extension NotificationService {
    /// The mode in which nothing plays (toasts still show).
    public static let silent = "silent"

    /// Whether sounds are heard now at all: `sounds=on` and not `silent`.
    public var soundsAreOn: Bool { global.sounds && !modes.contains(Self.silent) }

    /// Adds the `.sound` effect a notification that is being shown (or
    /// replaced in place) makes, if it makes one. The rules, in order:
    ///
    /// 1. the sender's `suppress-sound`, `sounds=off` and the `silent`
    ///    mode play nothing;
    /// 2. the config's `sound` for it decides: the sender's own sound
    ///    (the default), none, or the rule's in place of the sender's;
    /// 3. one sound per notification: a replacement plays only when it
    ///    names another sound than the one before;
    /// 4. what is kept off the screen is quiet too: `invisible`,
    ///    do-not-disturb and the fullscreen hold (critical ones go through,
    ///    as they go through to the screen) — `quiet` says so;
    /// 5. a sound asked for within `sound-gap` of the last one asked for
    ///    is dropped, and the gap starts again: a burst is heard once, at
    ///    its start, however long it lasts.
    func makeSound(_ asked: SoundRequest, for notification: Notification, _ resolved: Resolved, quiet: Bool,
                   at now: Instant, into effects: inout [ServiceEffect]) {
        guard !asked.suppressed, soundsAreOn else { return }
        let sound: NotificationSound
        switch resolved.sound {
        case .silence: return
        case .play(let configured): sound = configured
        case .sender:
            guard let sent = asked.sound else { return }
            sound = sent
        }
        let made = records[notification.id].sound
        records[notification.id].sound = sound
        guard made != sound, !quiet else { return }
        if let last = lastSoundAsked, now - last < global.soundGap {
            lastSoundAsked = now
            return
        }
        lastSoundAsked = now
        effects.append(.sound(SoundCue(id: notification.id, app: notification.app, sound: sound,
                                       volume: resolved.soundVolume)))
    }

    /// Kept off the screen by a mode or the fullscreen hold (not by the
    /// center being open: what arrives then is listed in it, and heard).
    func isQuietened(_ notification: Notification, _ resolved: Resolved) -> Bool {
        resolved.invisible || hold.quietens(notification.urgency,
                                            allowedWhenQuiet: appChoice(of: notification) == .allowed)
            || appChoice(of: notification) == .muted
    }
}
