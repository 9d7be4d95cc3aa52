/// Perch's version, reported by `--version` and `status`.
public enum PerchVersion {
    public static let string = "0.1.0"
}
