import PerchCore

extension OutputChoice {
    /// The output this choice names among those the compositor has
    /// announced: by name, or (`index`) by its place in the order they
    /// were announced; nil for `focused` and `all`, and while it is not
    /// there (the compositor's choice meanwhile).
    func output<Output: AnnouncedOutput>(among outputs: Dictionary<UInt32, Output>.Values) -> Output? {
        switch self {
        case .named(let name):
            return outputs.first { $0.name == name }
        case .index(let place):
            let announced = outputs.sorted { $0.registryName < $1.registryName }
            return place < announced.count ? announced[place] : nil
        case .focused, .all:
            return nil
        }
    }
}
