/// Whether the activated (focused) window is fullscreen, and on which
/// outputs, by name, as the compositor's window list tells it. With
/// several seats there may be several activated windows.
public struct FullscreenReport: Equatable, Sendable {
    /// An activated window is fullscreen (wherever it is).
    public var isActivatedFullscreen = false
    /// The outputs it is on (usually one; none when the compositor did not say).
    public var outputs: Set<String> = []

    public init(isActivatedFullscreen: Bool = false, outputs: Set<String> = []) {
        self.isActivatedFullscreen = isActivatedFullscreen
        self.outputs = outputs
    }

    /// Whether the activated window is fullscreen where the toasts are:
    /// on the configured output (`output=NAME`) while it is connected;
    /// otherwise (`focused`, or that output absent) the stages are on the
    /// focused output, which is the activated window's, so any activated
    /// fullscreen window counts — and with `all` (name nil too) there is a
    /// copy on the fullscreen window's output, so it counts as well.
    public func covers(configuredOutput name: String?, connected: some Sequence<String>) -> Bool {
        if let name, connected.contains(name) { return outputs.contains(name) }
        return isActivatedFullscreen
    }
}
