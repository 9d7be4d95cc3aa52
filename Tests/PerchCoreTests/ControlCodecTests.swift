import Testing
import PerchCore

private func decode(_ line: String) -> ControlEnvelope {
    ControlProtocol.decode(line: Array(line.utf8))
}

private func errorCode(_ line: String) -> ControlErrorCode? {
    if case .failure(let error) = decode(line).request { return error.code }
    return nil
}

@Suite("Control requests")
struct ControlCodecTests {
    @Test("a notify request with every parameter decodes")
    func notifyDecodes() throws {
        let envelope = decode(#"{"id":7,"method":"notify","params":{"title":"T","body":"B","app":"mail","icon":"/i.png","urgency":"low","timeout":2.5}}"#)
        #expect(envelope.id == 7)
        var expected = NotifyRequest(title: "T")
        expected.body = "B"
        expected.app = "mail"
        expected.iconPath = "/i.png"
        expected.urgency = .low
        expected.timeout = 2.5
        #expect(try envelope.request.get() == .notify(expected))
    }

    @Test("dismiss takes an id or all")
    func dismissDecodes() throws {
        #expect(try decode(#"{"id":1,"method":"dismiss","params":{"id":4}}"#).request.get() == .dismiss(.id(4)))
        #expect(try decode(#"{"id":1,"method":"dismiss","params":{"all":true}}"#).request.get() == .dismiss(.all))
        #expect(errorCode(#"{"id":1,"method":"dismiss","params":{}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"dismiss","params":{"id":0}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"dismiss","params":{"id":1.5}}"#) == .invalidParams)
    }

    @Test("reply takes an id and the text, both required; notify takes a reply placeholder")
    func replyDecodes() throws {
        #expect(try decode(#"{"id":1,"method":"reply","params":{"id":4,"text":"on my way"}}"#).request.get()
            == .reply(id: 4, text: "on my way"))
        #expect(errorCode(#"{"id":1,"method":"reply","params":{"text":"t"}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"reply","params":{"id":4}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"reply","params":{"id":4,"text":7}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"reply","params":{"id":4,"text":"t","action":"x"}}"#) == .invalidParams)
        var expected = NotifyRequest(title: "T")
        expected.replyPlaceholder = "Answer"
        #expect(try decode(#"{"id":1,"method":"notify","params":{"title":"T","reply_placeholder":"Answer"}}"#)
            .request.get() == .notify(expected))
    }

    @Test("bad lines get the matching error code")
    func badLines() {
        #expect(errorCode("hello") == .parseError)
        #expect(errorCode("[1,2]") == .invalidRequest)
        #expect(errorCode(#"{"id":1}"#) == .invalidRequest)
        #expect(errorCode(#"{"id":1,"method":"fly"}"#) == .methodNotFound)
        #expect(errorCode(#"{"id":1,"method":"notify","params":{}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"notify","params":{"title":3}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"notify","params":{"title":"T","urgency":"loud"}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"notify","params":{"title":"T","timeout":-1}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"notify","params":{"title":"T","colour":"red"}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"notify","params":[]}"#) == .invalidParams)
        #expect(errorCode(#"{"id":[1],"method":"list"}"#) == .invalidRequest)
    }

    @Test("the reply echoes the request id even when the request is bad")
    func idEchoed() {
        #expect(decode(#"{"id":"abc","method":"fly"}"#).id == "abc")
        #expect(decode("not json").id == .null)
    }

    @Test("replies and errors are single JSON lines with a fixed key order")
    func encoding() {
        #expect(ControlProtocol.encodeReply(id: 3, result: ["id": 12]) == #"{"id":3,"result":{"id":12}}"#)
        #expect(ControlProtocol.encodeError(id: .null, ControlError(.parseError, "bad")) ==
                #"{"id":null,"error":{"code":-32700,"message":"bad"}}"#)
        #expect(ControlProtocol.encodeRequest(id: 1, method: "list", params: [:]) ==
                #"{"id":1,"method":"list","params":{}}"#)
    }
}
