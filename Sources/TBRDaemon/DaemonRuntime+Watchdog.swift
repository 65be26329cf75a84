import TBRDBusAdapter
import DBus
import TBRDBusAPI
import TBRFoundation

extension DaemonRuntime {
    /// Feeds the service manager's watchdog (`WatchdogSec=` in the unit) every half `interval`, and only
    /// after tbrd has answered itself: a D-Bus ping through the bus to its own connection (the bus, the
    /// dispatch of incoming calls and of replies), then a read from the border router service's actor and
    /// from this one. A tbrd stuck in any of them stops feeding it, and systemd restarts it once the
    /// interval has passed. Runs until cancelled.
    nonisolated func feedWatchdog(every interval: Duration) async {
        let half = interval / 2
        while true {
            do { try await clock.sleep(until: clock.now().advanced(by: half)) } catch { return }
            let outcome: TimeLimit.Outcome<Void>
            do {
                outcome = try await TimeLimit.run(half, clock: clock) { try await self.answerItself() }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("watchdog not fed: tbrd's check of itself failed", [("error", "\(error)")])
                continue
            }
            if case .finished = outcome {
                notifier.notify("WATCHDOG=1") { [logger] in logger.warning("the service manager cannot be told", [("error", $0)]) }
            } else {
                logger.warning("watchdog not fed: tbrd did not answer itself in time", [("within", "\(half)")])
            }
        }
    }

    /// One round through the parts a hung tbrd would be stuck in.
    private func answerItself() async throws {
        _ = try await connection.call(
            destination: try BusName(connection.uniqueName), path: TBRDBusAPI.managerPath, interface: .peer, member: "Ping")
        _ = await service.deviceIDs()
        _ = await dbus.exportedRouterCount()
    }
}
