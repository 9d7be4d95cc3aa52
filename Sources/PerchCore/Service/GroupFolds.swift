/// The groups `group-by` makes, each shown as one toast: its *head*, the
/// newest member, stands for the others, its *folded* members, which stay
/// live off screen (listed, closable, invokable, each with its own timer:
/// see `NotificationBoard+Follow.swift`). Only ids; the board holds the
/// notifications.
struct GroupFolds: Equatable, Sendable {
    /// Each head's folded members, oldest first.
    private(set) var members: [UInt32: [UInt32]] = [:]
    /// Each folded member's head.
    private(set) var heads: [UInt32: UInt32] = [:]

    /// Whether `id` is folded under a head.
    func isFolded(_ id: UInt32) -> Bool { heads[id] != nil }

    /// How many live notifications `id`'s group has, `id` included (1 for
    /// one in no group).
    func size(of id: UInt32) -> Int {
        let head = heads[id] ?? id
        return 1 + (members[head]?.count ?? 0)
    }

    /// The ids of `id`'s group, head last (just `id` for one in no group).
    func group(of id: UInt32) -> [UInt32] {
        let head = heads[id] ?? id
        return (members[head] ?? []) + [head]
    }

    /// How many are folded, in every group.
    var foldedCount: Int { heads.count }

    /// `older` (a head, or in no group) and its own members fold under
    /// `head`, newer than all of them. Returns those now folded under it.
    mutating func fold(_ older: UInt32, under head: UInt32) -> [UInt32] {
        let moving = (members.removeValue(forKey: older) ?? []) + [older]
        members[head, default: []] += moving
        for id in moving { heads[id] = head }
        return moving
    }

    /// A folded member left: returns its head (nil when it was not folded).
    mutating func leave(_ id: UInt32) -> UInt32? {
        guard let head = heads.removeValue(forKey: id) else { return nil }
        members[head]?.removeAll { $0 == id }
        if members[head]?.isEmpty == true { members.removeValue(forKey: head) }
        return head
    }

    /// A head left: its newest member becomes the head of the others.
    /// Returns that member and the others (nil when it headed none).
    mutating func headLeaves(_ id: UInt32) -> (head: UInt32, members: [UInt32])? {
        guard var rest = members.removeValue(forKey: id), let newest = rest.popLast() else { return nil }
        heads.removeValue(forKey: newest)
        if !rest.isEmpty { members[newest] = rest }
        for member in rest { heads[member] = newest }
        return (newest, rest)
    }
}
