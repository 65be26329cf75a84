public enum TBRDaemonMain {
    public static func main(arguments: [String]) async -> Int32 { 0 }
}
