import TBRCoreServices
import TBRCore

// The core as the adapters take it.

extension DaemonRuntime {
    /// The core as the adapters take it: one service per concern (module TBRCoreServices), and the call
    /// gate with the events (``TBRCoreServices/CoreGate``), which the D-Bus adapter's calls pass too.
    nonisolated var core: Core {
        Core(routers: routers, diagnostics: diagnostics, structures: structureService, matter: matter, tokens: authenticator, lifecycle: gate,
            backups: backups, recovery: recovery, health: health)
    }
}
