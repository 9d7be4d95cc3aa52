// Fuzz target: the accessibility tree's text and structure
// (PerchCore/Access: AccessText, AccessTree, AccessDiff, AccessNodeID).
//
// The input is cut at 0 bytes into a title, a body, and action labels;
// its first byte picks the limit and whether the body is markup.
// Properties:
// - the text is within its bound (plus the ellipsis of a cut), holds no
//   control or bidi characters, no leading, trailing or doubled space,
//   and reading it again as plain text changes nothing (when uncut);
// - the tree of two such toasts (and the open center) is a tree: each
//   node once in the preorder, each child's parent its node, every path
//   names its node back;
// - the diff of a tree against itself is empty, and from the empty tree
//   it adds exactly the root's children, each shown.
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccess(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    let limit = 1 + Int(flags >> 1) * 8
    let markup = flags & 1 == 1
    let title = input.text()
    let body = input.text()
    var labels: [String] = []
    while labels.count < 4 {
        let label = input.text()
        if label.isEmpty { break }
        labels.append(label)
    }

    for (text, useMarkup) in [(title, false), (body, markup)] {
        let plain = AccessText.plain(text, markup: useMarkup, limit: limit)
        let scalars = Array(plain.unicodeScalars)
        let cut = scalars.last == "…" && scalars.count == limit + 1
        require(scalars.count <= limit + (cut ? 1 : 0), "longer than its bound: \(scalars.count) > \(limit)")
        let kept = cut ? Array(scalars.dropLast()) : scalars
        require(kept.first != " " && kept.last != " ", "a space at an end")
        for (index, scalar) in kept.enumerated() {
            let value = scalar.value
            require(!(value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                      || (0x2066...0x2069).contains(value) || value == 0xFEFF), "a control character: \(value)")
            require(!(scalar == " " && index > 0 && kept[index - 1] == " "), "two spaces")
        }
        if !cut {
            require(AccessText.plain(plain, markup: false, limit: limit) == plain, "plain text read again changed")
        }
    }

    var first = Notification(id: 1, app: title, title: title, body: body, urgency: flags & 2 == 0 ? .normal : .critical)
    first.actions = labels.enumerated().map { NotificationAction(id: $0.offset == 0 ? "default" : $0.element, label: $0.element) }
    let second = Notification(id: 2, app: "app", title: body, body: title)
    let model = AccessModel(toasts: [.init(notification: first, markup: markup), .init(notification: second, markup: !markup)],
                            center: flags & 4 == 0 ? nil : CenterContent(live: [first], postedAt: 0, history: []),
                            doNotDisturb: flags & 8 != 0, focused: flags & 16 == 0 ? nil : 1)
    let tree = AccessTree(model)
    let order = tree.preorder()
    require(Set(order).count == order.count && order.count == tree.nodes.count, "not every node once in the preorder")
    for id in order {
        require(AccessNodeID(path: id.path) == id, "the path \(id.path) does not name its node")
        for child in tree[id]?.children ?? [] {
            require(tree[child]?.parent == id, "a child whose parent is another node")
        }
    }
    require(AccessDiff.events(from: tree, to: tree).isEmpty, "a tree differs from itself")
    let added = AccessDiff.events(from: AccessTree(AccessModel()), to: tree)
    let children = added.compactMap { event -> AccessNodeID? in
        if case .childAdded(.root, let child, _) = event { child } else { nil }
    }
    require(children == tree.root.children, "the diff from nothing does not add the root's children")
    return 0
}
