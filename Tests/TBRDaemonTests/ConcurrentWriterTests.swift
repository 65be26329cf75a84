import DBus
import Foundation
import TBRTestKit
import Testing

/// Reads of one structure never fail because another client creates and deletes other structures.
@Suite struct ConcurrentWriterTests {
    @Test func readsOfOneStructureSurviveAnotherBeingDeleted() async throws {
        try await withDaemon { env throws in
            try await env.startDaemon()
            _ = try await env.manager.call("CreateStructure", [.string("Home")])
            let home = try await env.manager.call("FindStructure", [.string("Home")])
            guard case .objectPath(let homePath)? = home.first else { Issue.record("no path"); return }
            let structure = RemoteObject(connection: env.client, destination: "io.tbrd", path: homePath, interface: "io.tbrd.Structure1")
            let writer = try await Connection(bus: .address(env.address))
            let churn = Task {
                let manager = RemoteObject(connection: writer, destination: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1")
                var n = 0
                while !Task.isCancelled {
                    n += 1
                    _ = try? await manager.call("CreateStructure", [.string("W\(n)")])
                    _ = try? await manager.call("DeleteStructure", [.string("W\(n)")])
                }
            }
            var failures: [String] = []
            for _ in 0..<150 {
                do {
                    let listed = try await env.manager.call("ListStructures")
                    guard case .array(_, let rows) = listed[0], !rows.isEmpty else { failures.append("empty listing"); continue }
                    let all = try await structure.allProperties()
                    if all["Name"] != .string("Home") { failures.append("GetAll gave \(all["Name"].map { "\($0)" } ?? "no name")") }
                    _ = try await structure.property("BorderRouters")
                } catch {
                    failures.append("\(error)")
                }
            }
            churn.cancel()
            _ = await churn.result
            await writer.close()
            #expect(failures.isEmpty, "\(failures.count) of 150 reads failed, first: \(failures.first ?? "")")
        }
    }
}
