/// What a hold kept back from the moment it began (do-not-disturb, an
/// inhibition, a share or a fullscreen window that holds or hides): how
/// many arrived unseen, from which apps. When the hold ends with
/// `missed-summary` or more, one toast says so (`NotificationService+Quiet`).
struct MissedTally: Equatable {
    /// What began the hold, as `HoldPolicy.reasons` names it.
    var reason: String
    var count = 0
    /// The apps they came from (bounded: past the limit only the count grows).
    var apps: Set<String> = []

    static let appLimit = 1_000

    init(reason: String) {
        self.reason = reason
    }

    mutating func add(app: String) {
        count += 1
        if apps.count < Self.appLimit { apps.insert(app) }
    }

    /// The summary's title: what kept them back.
    var title: String {
        switch reason {
        case "sharing": "While sharing the screen"
        case "inhibited": "While an app asked for quiet"
        case "do-not-disturb": "While do-not-disturb was on"
        case "fullscreen": "While a window was fullscreen"
        default: "While notifications were held"
        }
    }

    /// The summary's body: "12 notifications from 4 apps".
    var body: String {
        let apps = max(self.apps.count, 1)
        return "\(count) notification\(count == 1 ? "" : "s") from \(apps) app\(apps == 1 ? "" : "s")"
    }
}
