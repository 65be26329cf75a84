import DBus
import TBRDBusAPI
import TBRFoundation

/// Health through tbrd (`Manager1.Problems`, `ProblemHistory`, `ProblemOpened`, `ProblemClosed`).
extension TbrdBackend {
    private typealias Manager = TBRDBusAPI.Manager

    /// `Problems()`, or `ProblemHistory(seconds, router)` when `history`.
    func problems(history: Bool, seconds: Double, router: String?) async throws -> [ProblemRow] {
        let reply =
            history
            ? try await call(manager, Manager.problemHistory.name, [.double(seconds), .string(router ?? "")], doing: "reading tbrd's problem history")
            : try await call(manager, Manager.problems.name, doing: "reading tbrd's problems")
        guard let first = reply.first, let rows = try? [ProblemRow](dbusValue: first) else { throw ControlError.failure("tbrd sent an unexpected reply") }
        return rows
    }

    /// `HealthSamples(seconds, router)`.
    func samples(seconds: Double, router: String?) async throws -> [SampleRow] {
        let reply = try await call(manager, Manager.healthSamples.name, [.double(seconds), .string(router ?? "")], doing: "reading tbrd's health history")
        guard let first = reply.first, let rows = try? [SampleRow](dbusValue: first) else { throw ControlError.failure("tbrd sent an unexpected reply") }
        return rows
    }

    /// Calls `onChange` with each problem opened (`true`) or closed until tbrd goes away or it returns false.
    func watchProblems(_ onChange: (Bool, ProblemRow) throws -> Bool) async throws {
        let signals: SignalStream
        do {
            signals = try await connection.signals(
                matching: MatchRule(sender: TBRDBusAPI.busName, path: TBRDBusAPI.managerPath, interface: Manager.interface))
        } catch {
            throw ErrorMapping.controlError(error, doing: "subscribing to tbrd's problems")
        }
        // tbrd is there: a watch of a tbrd that is not running says so at once.
        _ = try await problems(history: false, seconds: 0, router: nil)
        for try await signal in signals {
            let words = signal.arguments
            func text(_ i: Int) -> String { i < words.count ? ((try? words[i].decode(as: String.self)) ?? "") : "" }
            let id = words.first.flatMap { try? $0.decode(as: UInt64.self) } ?? 0
            switch signal.member {
            case Manager.problemOpened.name:
                let row = ProblemRow(id: id, subject: text(1), check: text(2), message: text(3), fix: text(4), openedAt: 0, closedAt: 0)
                if try !onChange(true, row) { return }
            case Manager.problemClosed.name:
                let row = ProblemRow(id: id, subject: text(1), check: text(2), message: "", fix: "", openedAt: 0, closedAt: 0)
                if try !onChange(false, row) { return }
            default:
                continue
            }
        }
    }
}
