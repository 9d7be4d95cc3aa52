/// A synchronous tag (`x-canonical-private-synchronous`, dunst's
/// `x-dunst-stack-tag`) as the service files it: the name the sender gave,
/// within its sandbox. Ordinary clients share one space (a volume script
/// and the key daemon that both say "volume" update one toast); each
/// sandboxed app has its own, so a sandboxed app that names another's tag
/// neither takes over that toast nor catches its next update.
struct SynchronousTag: Hashable {
    /// `Notification.sandbox` of the sender; nil for ordinary clients.
    var sandbox: String?
    var name: String
}
