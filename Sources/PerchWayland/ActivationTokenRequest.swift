import CPerchSupport
import CWaylandClient

/// One xdg_activation_token_v1 waiting for the compositor's `done`. The
/// connection keeps it until then; dropping it earlier (the connection
/// going away) destroys the token object without an answer.
final class ActivationTokenRequest {
    private let proxy: OpaquePointer
    private var finish: ((ActivationTokenRequest, String?) -> Void)?

    init(proxy: OpaquePointer, finish: @escaping (ActivationTokenRequest, String?) -> Void) {
        self.proxy = proxy
        self.finish = finish
        xdg_activation_token_v1_add_listener(proxy, tokenListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        xdg_activation_token_v1_destroy(proxy)
    }

    fileprivate func done(_ token: String) {
        // Once: the protocol sends one done, but a second must not call
        // back into a request already let go.
        guard let finish else { return }
        self.finish = nil
        finish(self, token)
    }
}

nonisolated(unsafe) private let tokenListener: UnsafeMutablePointer<xdg_activation_token_v1_listener> = {
    let listener = UnsafeMutablePointer<xdg_activation_token_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: xdg_activation_token_v1_listener(done: { data, _, token in
        guard let data else { return }
        Unmanaged<ActivationTokenRequest>.fromOpaque(data).takeUnretainedValue()
            .done(token.map { String(cString: $0) } ?? "")
    }))
    return listener
}()
