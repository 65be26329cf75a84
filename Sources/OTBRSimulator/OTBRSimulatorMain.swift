public enum OTBRSimulatorMain {
    public static func main(arguments: [String]) async -> Int32 { 0 }
}
