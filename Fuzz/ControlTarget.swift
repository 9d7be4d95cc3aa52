// Fuzz target: the control protocol's request codec
// (`ControlProtocol.decode(line:)`, PerchCore/Control/ControlCodec.swift), which
// reads every line a client sends on the socket.
//
// Properties, for every line:
// - decoding returns an envelope; it never crashes;
// - the error reply for it (`encodeError`) is one line of JSON that a
//   client reads back (`decodeReply`) as the same error, with the id the
//   request carried;
// - a request that decodes, written again as a request line (`line(for:)`
//   below, the members docs/protocol.md names), decodes to the same
//   request and id: nothing the daemon accepts is lost or changed on the
//   way, and the decoder accepts everything it can express.
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = FuzzInput(data, size).all
    let envelope = ControlProtocol.decode(line: line)

    switch envelope.request {
    case .failure(let error):
        let reply = Array(ControlProtocol.encodeError(id: envelope.id, error).utf8)
        require(!reply.contains(10), "an error reply with a raw newline")
        do {
            let read = try ControlProtocol.decodeReply(line: reply, for: .status)
            require(read.id == envelope.id, "the error reply's id changed: \(read.id) vs \(envelope.id)")
            guard case .failure(let back) = read.reply else {
                require(false, "an error reply read back as a result")
                return 0
            }
            require(back == error, "the error read back differs: \(back) vs \(error)")
        } catch {
            require(false, "an error reply the client cannot read: \(error)")
        }
    case .success(let request):
        let again = ControlProtocol.decode(line: Array(requestLine(id: envelope.id, request).utf8))
        require(again.id == envelope.id, "re-encoded id changed")
        require(again.request == .success(request),
                "re-encoded request decodes differently: \(again.request) vs \(request)")
    }
    return 0
}

/// A request line for `request`: the inverse of the decoder, written from
/// docs/protocol.md (not from the decoder's code).
func requestLine(id: JSONValue, _ request: ControlRequest) -> String {
    var params = JSONObject()
    func set(_ key: String, _ value: JSONValue?) {
        if let value { _ = params.updateValue(value, forKey: key) }
    }
    func setEnd(_ end: QuietEnd?) {
        switch end {
        case .after(let seconds)?: set("for", .number(Double(seconds)))
        case .at(let time)?: set("until", .number(Double(time)))
        case nil: break
        }
    }
    switch request {
    case .notify(let notify):
        set("title", .string(notify.title))
        set("body", .string(notify.body))
        set("app", .string(notify.app))
        set("icon", notify.iconPath.map(JSONValue.string))
        set("urgency", .string(notify.urgency.rawValue))
        set("timeout", notify.timeout.map(JSONValue.number))
        set("replaces_id", notify.replaces.map { .number(Double($0)) })
        set("anchor", notify.anchor.map { .string($0.rawValue) })
        set("enter", notify.enter.map { .string($0.description) })
        set("exit", notify.exit.map { .string($0.description) })
        set("bounce", notify.bounce.map(JSONValue.bool))
        set("resident", .bool(notify.resident))
        set("transient", .bool(notify.transient))
        set("category", notify.category.map(JSONValue.string))
        set("reply_placeholder", notify.replyPlaceholder.map(JSONValue.string))
        set("desktop_entry", notify.desktopEntry.map(JSONValue.string))
        set("stack_tag", notify.synchronousTag.map(JSONValue.string))
        set("progress", notify.progress.map { .number(Double($0)) })
        set("actions", .array(notify.actions.map { ["id": .string($0.id), "label": .string($0.label)] }))
        set("style", notify.kind.map { .string($0.rawValue) })
        set("sound", notify.suppressSound ? "none" : notify.sound.map { .string($0.description) })
    case .dismiss(let target, let history):
        switch target {
        case .id(let id): set("id", .number(Double(id)))
        case .last: set("last", true)
        case .all: set("all", true)
        case .group(let id): set("group", .number(Double(id)))
        case .first: set("first", true)
        }
        set("history", .bool(history))
    case .invoke(let id, let action):
        set("id", .number(Double(id)))
        set("action", .string(action))
    case .reply(let id, let text):
        set("id", .number(Double(id)))
        set("text", .string(text))
    case .mode(let change, let ending):
        switch change {
        case .get: break
        case .set(let names): set("set", .array(names.map(JSONValue.string)))
        case .add(let name): set("add", .string(name))
        case .remove(let name): set("remove", .string(name))
        case .toggle(let name): set("toggle", .string(name))
        }
        setEnd(ending)
    case .snooze(let id, let ending):
        set("id", .number(Double(id)))
        setEnd(ending)
    case .apps(let app, let choice):
        set("app", app.map(JSONValue.string))
        if app != nil { set("choice", .string(choice?.rawValue ?? "none")) }
    case .center(let change):
        switch change {
        case nil: break
        case .open?: set("action", "open")
        case .close?: set("action", "close")
        case .toggle?: set("action", "toggle")
        }
    case .focus(let release):
        set("release", .bool(release))
    case .restore(let id):
        set("id", id.map { .number(Double($0)) })
    case .action(let position):
        set("position", .number(Double(position)))
    case .rule(let name, let enabled):
        set("name", .string(name))
        set("enabled", enabled.map(JSONValue.bool))
    case .copy(let id, let what):
        set("id", .number(Double(id)))
        set("what", .string(what.rawValue))
    case .list, .subscribe, .history, .status, .version, .reload, .context:
        break
    }
    return JSON.serialize(["id": id, "method": .string(request.method.rawValue), "params": .object(params)])
}
