/// One thing a screen reader is told, as AT-SPI's object events say it
/// (`org.a11y.atspi.Event.Object`).
public enum AccessEvent: Equatable, Sendable {
    /// `ChildrenChanged` "add": `child` now at `index` of `parent`.
    case childAdded(parent: AccessNodeID, child: AccessNodeID, index: Int)
    /// `ChildrenChanged` "remove": `child`, which was at `index`.
    case childRemoved(parent: AccessNodeID, child: AccessNodeID, index: Int)
    /// `StateChanged`.
    case state(AccessNodeID, AccessState, Bool)
    /// `PropertyChange` "accessible-name".
    case name(AccessNodeID, String)
    /// `PropertyChange` "accessible-description".
    case description(AccessNodeID, String)
}

/// What changed from one tree to the next, as the events a screen reader
/// needs, in screen order: what went (a toast's `showing` turning false,
/// then its removal from its parent), then what came (added, then
/// `showing`: Orca speaks a NOTIFICATION when it becomes showing), then
/// what changed in place (name, description, states). A subtree that
/// comes or goes is one pair of events at its top; its children come and
/// go with it.
///
/// The daemon diffs once per loop turn against what it last published, so
/// a turn's changes collapse: a toast shown and closed within one turn
/// tells nothing, one updated three times tells its last text once.
public enum AccessDiff {
    public static func events(from old: AccessTree, to new: AccessTree) -> [AccessEvent] {
        var events: [AccessEvent] = []
        for id in old.preorder() where new[id] == nil {
            guard let node = old[id], let parent = node.parent, new[parent] != nil else { continue }
            if node.states.contains(.showing) { events.append(.state(id, .showing, false)) }
            events.append(.childRemoved(parent: parent, child: id, index: old.index(of: id) ?? 0))
        }
        for id in new.preorder() where old[id] == nil {
            guard let node = new[id], let parent = node.parent, old[parent] != nil else { continue }
            events.append(.childAdded(parent: parent, child: id, index: new.index(of: id) ?? 0))
            if node.states.contains(.showing) { events.append(.state(id, .showing, true)) }
        }
        for id in new.preorder() {
            guard let before = old[id], let after = new[id] else { continue }
            if before.name != after.name { events.append(.name(id, after.name)) }
            if before.description != after.description { events.append(.description(id, after.description)) }
            for state in before.states.symmetricDifference(after.states).sorted() {
                events.append(.state(id, state, after.states.contains(state)))
            }
        }
        return events
    }
}
