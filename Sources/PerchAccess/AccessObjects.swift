import CSystemdBus
import PerchCore
import PerchPlatform

/// The objects of the accessibility tree on the accessibility bus: one
/// fallback handler under `/org/a11y/atspi/accessible` answers every
/// object's calls from the tree last published, so an object exists
/// exactly while its node does and nothing is registered per toast.
///
/// Interfaces: `org.a11y.atspi.Accessible` on every object,
/// `Application` on the root, `Action` where the node has a command,
/// `Component` (no real geometry: a zero box, so a reader that asks gets
/// an answer), and the standard Properties. What it does not know it
/// leaves to sd-bus, which answers UnknownObject or UnknownMethod.
final class AccessObjects {
    /// The tree the calls are answered from.
    var tree: AccessTree
    /// Perch's name on the accessibility bus, for object references.
    var uniqueName = ""
    /// The desktop the registry embedded the root in: the root's parent.
    var desktop = (name: AccessObjects.registryName, path: AccessNodeID.root.path)
    /// What the registry calls this application (it sets it).
    var applicationID: Int32 = 0
    /// A pressed object's command, for the daemon to carry out.
    var onCommand: (AccessCommand) -> Void = { _ in }

    static let registryName = "org.a11y.atspi.Registry"
    static let nullPath = "/org/a11y/atspi/null"
    static let accessible = "org.a11y.atspi.Accessible"
    static let application = "org.a11y.atspi.Application"
    static let action = "org.a11y.atspi.Action"
    static let component = "org.a11y.atspi.Component"
    static let properties = "org.freedesktop.DBus.Properties"

    init(tree: AccessTree) { self.tree = tree }

    /// Handles a method call to a path under the prefix: 1 once answered,
    /// 0 for sd-bus to answer that it knows no such object or method.
    func handle(_ call: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(call, nil, nil) > 0,
              let rawPath = sd_bus_message_get_path(call),
              let id = AccessNodeID(path: String(cString: rawPath)),
              let node = tree[id],
              let rawInterface = sd_bus_message_get_interface(call),
              let rawMember = sd_bus_message_get_member(call) else { return 0 }
        let interface = String(cString: rawInterface)
        let member = String(cString: rawMember)
        guard var reply = AccessMessage.reply(to: call) else { return 0 }
        let answered: Bool
        switch interface {
        case Self.properties: answered = properties(member, call, node, &reply)
        case Self.accessible: answered = accessible(member, call, node, &reply)
        case Self.application where id == .root: answered = application(member, call, &reply)
        case Self.action where node.command != nil: answered = action(member, call, node, &reply)
        case Self.component: answered = component(member, &reply)
        default: answered = false
        }
        guard answered else { return 0 }
        _ = reply.send(on: nil)
        return 1
    }

    /// `org.a11y.atspi.Cache.GetItems` at `cachePath`, which libatspi asks
    /// every new application for (and counts it dead without an answer).
    /// The answer is empty: a reader then reads each object as it needs
    /// it and keeps it right from the events, so no second copy of the
    /// tree, with signals of its own, has to be kept in step.
    func handleCache(_ call: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(call, Self.cache, "GetItems") > 0,
              var reply = AccessMessage.reply(to: call) else { return 0 }
        reply.open("a", "((so)(so)(so)iiassusau)")
        reply.close()
        _ = reply.send(on: nil)
        return 1
    }

    static let cachePath = "/org/a11y/atspi/cache"
    static let cache = "org.a11y.atspi.Cache"

    // MARK: Properties

    private func properties(_ member: String, _ call: OpaquePointer, _ node: AccessNode,
                            _ reply: inout AccessMessage) -> Bool {
        guard let interface = AccessRead.string(call) else { return false }
        switch member {
        case "Get":
            guard let name = AccessRead.string(call), hasProperty(interface, name, node) else { return false }
            reply.open("v", signature(interface, name))
            property(interface, name, node, &reply)
            reply.close()
        case "GetAll":
            reply.open("a", "{sv}")
            for name in propertyNames(interface, node) {
                reply.open("e", "sv")
                reply.string(name)
                reply.open("v", signature(interface, name))
                property(interface, name, node, &reply)
                reply.close()
                reply.close()
            }
            reply.close()
        case "Set":
            // The registry numbers the applications it embeds.
            guard interface == Self.application, node.id == .root, AccessRead.string(call) == "Id",
                  sd_bus_message_enter_container(call, CChar(UInt8(ascii: "v")), "i") > 0,
                  let value = AccessRead.int32(call) else { return false }
            applicationID = value
        default:
            return false
        }
        return true
    }

    private func propertyNames(_ interface: String, _ node: AccessNode) -> [String] {
        switch interface {
        case Self.accessible: ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"]
        case Self.application where node.id == .root: ["ToolkitName", "Version", "AtspiVersion", "Id"]
        case Self.action where node.command != nil: ["NActions"]
        default: []
        }
    }

    private func hasProperty(_ interface: String, _ name: String, _ node: AccessNode) -> Bool {
        propertyNames(interface, node).contains(name)
    }

    private func signature(_ interface: String, _ name: String) -> String {
        switch name {
        case "Parent": "(so)"
        case "ChildCount", "Id", "NActions": "i"
        default: "s"
        }
    }

    private func property(_ interface: String, _ name: String, _ node: AccessNode, _ reply: inout AccessMessage) {
        switch name {
        case "Name": reply.string(node.name)
        case "Description": reply.string(node.description)
        case "Parent": parent(of: node, &reply)
        case "ChildCount": reply.int32(Int32(node.children.count))
        case "Locale": reply.string(Self.locale)
        case "AccessibleId": reply.string(String(node.id.path.dropFirst(AccessNodeID.pathPrefix.count + 1)))
        case "HelpText": reply.string("")
        case "ToolkitName": reply.string(AccessTree.applicationName)
        case "Version": reply.string(PerchVersion.string)
        case "AtspiVersion": reply.string("2.1")
        case "Id": reply.int32(applicationID)
        case "NActions": reply.int32(node.command == nil ? 0 : 1)
        default: reply.string("")
        }
    }

    // MARK: Accessible

    private func accessible(_ member: String, _ call: OpaquePointer, _ node: AccessNode,
                            _ reply: inout AccessMessage) -> Bool {
        switch member {
        case "GetChildAtIndex":
            let index = AccessRead.int32(call).map(Int.init) ?? -1
            if node.children.indices.contains(index) { reference(node.children[index], &reply) } else { null(&reply) }
        case "GetChildren":
            reply.open("a", "(so)")
            for child in node.children { reference(child, &reply) }
            reply.close()
        case "GetIndexInParent":
            reply.int32(Int32(tree.index(of: node.id) ?? -1))
        case "GetRelationSet":
            reply.open("a", "(ua(so))")
            reply.close()
        case "GetRole":
            reply.uint32(node.role.rawValue)
        case "GetRoleName", "GetLocalizedRoleName":
            reply.string(node.role.name)
        case "GetState":
            reply.open("a", "u")
            for word in AccessState.words(node.states) { reply.uint32(word) }
            reply.close()
        case "GetAttributes":
            reply.stringMap(node.attributes)
        case "GetApplication":
            reference(.root, &reply)
        case "GetInterfaces":
            var names = [Self.accessible, Self.component]
            if node.id == .root { names.append(Self.application) }
            if node.command != nil { names.append(Self.action) }
            reply.strings(names)
        default:
            return false
        }
        return true
    }

    // MARK: Application

    private func application(_ member: String, _ call: OpaquePointer, _ reply: inout AccessMessage) -> Bool {
        switch member {
        case "GetLocale": reply.string(Self.locale)
        // Empty: no peer-to-peer connection is offered; readers stay on
        // the accessibility bus.
        case "GetApplicationBusAddress": reply.string("")
        case "RegisterEventListener", "DeregisterEventListener": break
        default: return false
        }
        return true
    }

    // MARK: Action

    private func action(_ member: String, _ call: OpaquePointer, _ node: AccessNode,
                        _ reply: inout AccessMessage) -> Bool {
        guard let command = node.command else { return false }
        switch member {
        case "GetActions":
            reply.open("a", "(sss)")
            reply.open("r", "sss")
            reply.string(AccessNode.actionName)
            reply.string(Self.describe(command))
            reply.string("")
            reply.close()
            reply.close()
        case "GetName", "GetLocalizedName", "GetDescription", "GetKeyBinding":
            let index = AccessRead.int32(call) ?? -1
            guard index == 0 else { reply.string(""); return true }
            reply.string(member == "GetDescription" ? Self.describe(command)
                : member == "GetKeyBinding" ? "" : AccessNode.actionName)
        case "DoAction":
            let index = AccessRead.int32(call) ?? -1
            reply.bool(index == 0)
            if index == 0 { onCommand(command) }
        default:
            return false
        }
        return true
    }

    private static func describe(_ command: AccessCommand) -> String {
        switch command {
        case .invoke, .invokeCenterEntry: "Activate"
        case .setDoNotDisturb(let on): on ? "Turn do not disturb on" : "Turn do not disturb off"
        }
    }

    // MARK: Component

    /// Perch does not know where the compositor put its surfaces in
    /// screen coordinates (Wayland does not tell), so every box is empty.
    private func component(_ member: String, _ reply: inout AccessMessage) -> Bool {
        switch member {
        case "GetExtents":
            reply.open("r", "iiii")
            for _ in 0..<4 { reply.int32(0) }
            reply.close()
        case "GetPosition", "GetSize":
            reply.open("r", "ii")
            reply.int32(0)
            reply.int32(0)
            reply.close()
        case "GetLayer": reply.uint32(6)  // ATSPI_LAYER_OVERLAY
        case "GetAlpha": reply.double(1)
        case "Contains", "GrabFocus": reply.bool(false)
        case "GetAccessibleAtPoint": null(&reply)
        default: return false
        }
        return true
    }

    // MARK: References

    func reference(_ id: AccessNodeID, _ message: inout AccessMessage) {
        message.reference(uniqueName, id.path)
    }

    private func parent(of node: AccessNode, _ reply: inout AccessMessage) {
        if let parent = node.parent {
            reference(parent, &reply)
        } else {
            reply.reference(desktop.name, desktop.path)
        }
    }

    private func null(_ reply: inout AccessMessage) {
        reply.reference("", Self.nullPath)
    }

    private static let locale: String = {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = Environment.value(name), !value.isEmpty { return value }
        }
        return "C"
    }()
}
