import Glibc

/// A failed system call: which operation, and the errno it left.
public struct SystemError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var code: Int32
    /// The whole sentence, when strerror's words would say less than what
    /// was found (`FileError`: "… is a FIFO, not a regular file").
    public var detail: String?

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// A file that could not be opened, in `FileError`'s words.
    public init(_ error: FileError, operation: String) {
        self.operation = operation
        code = error.code
        detail = error.description
    }

    public var description: String {
        detail ?? "\(operation): \(String(cString: strerror(code)))"
    }
}

/// Runs a syscall wrapper that returns -1 on failure, retrying on EINTR.
@discardableResult
func retryingOnInterrupt(_ operation: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
    while true {
        let result = body()
        if result >= 0 { return result }
        if errno == EINTR { continue }
        throw SystemError(operation)
    }
}
