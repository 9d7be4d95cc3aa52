import PerchCore

/// A removal event reduced to what tests compare.
struct Removal: Equatable {
    var id: UInt32
    var reason: DismissReason
}

/// The removals among `events`, in order.
func removals(_ events: [StackEvent]) -> [Removal] {
    events.compactMap { event in
        if case .removed(let notification, let reason) = event { return Removal(id: notification.id, reason: reason) }
        return nil
    }
}
