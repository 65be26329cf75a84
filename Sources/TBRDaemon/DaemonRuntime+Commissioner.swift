import BorderRouterService
import TBRFoundation

extension DaemonRuntime {
    /// The commissioner tbrd.conf chooses (`matter-backend`; ``MatterCommissioner/NoCommissioner`` for `none`).
    static func commissioner(_ configuration: DaemonConfiguration, clock: any TBRClock, logger: Logger) -> any Commissioner {
        switch configuration.matterBackend {
        case .none:
            return NoCommissioner()
        case .matterServer:
            return MatterServerCommissioner(
                url: configuration.matterServerURL, clock: clock, connectTimeout: .seconds(min(10, configuration.matterCallTimeout)), logger: logger)
        }
    }
}
