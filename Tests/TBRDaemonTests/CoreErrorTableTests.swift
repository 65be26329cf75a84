@testable import TBRDBusAdapter
import DBus
import TBRCore
import TBRDBusAPI
import Testing

@testable import TBRDaemon
@testable import TBRHTTPAdapter

/// The core's one error table, as each adapter spells it: the D-Bus adapter's names are the table's,
/// the HTTP adapter's statuses and problem types are the table's, and an error thrown anywhere reaches
/// both as the same condition, never through the other adapter's spelling.
@Suite struct CoreErrorTableTests {
    @Test(arguments: CoreError.Condition.allCases)
    func everyAdapterSpellsAConditionFromTheOneTable(_ condition: CoreError.Condition) {
        #expect(DaemonError.name(condition).rawValue == TBRDBusAPI.errorPrefix + condition.dbusName)
        #expect(CoreError.Condition(dbusName: condition.dbusName) == condition)
        let problem = APIProblem.from(CoreError(condition, "why"))
        #expect(problem.status == condition.httpStatus && problem.type == "urn:tbrd:problem:" + condition.problemType)
        #expect(problem.exitStatus == Int(condition.exitStatus) && problem.detail == "why")
        let bus = DaemonError.from(CoreError(condition, "why"))
        #expect(bus.name == DaemonError.name(condition) && bus.message == "why")
    }

    @Test func errorsFromBelowReachBothAdaptersAsOneCondition() {
        let busy = DBusError(TBRDBusAPI.Error.busy, "an agent's session")
        #expect(DaemonError.core(busy) == CoreError(.busy, "an agent's session"))
        // The core maps once (its call gate), the HTTP adapter spells the core's error.
        #expect(APIProblem.from(DaemonError.core(busy)).status == 409)
        let foreign = DBusError(.propertyReadOnly, "read-only")
        #expect(DaemonError.from(foreign) == foreign, "a bus error goes back over D-Bus as it came")
        #expect(APIProblem.from(DaemonError.core(foreign)).status == 500)
        #expect(APIProblem.from(foreign).status == 500, "the adapter takes only the core's error; anything else is failed")
        #expect(DaemonError.core(CancellationError()).condition == .unavailable)
    }
}
