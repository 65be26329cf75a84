package import BorderRouterService
package import TBRFoundation

/// Runs `follow` for every router `service` knows now and for each one added later, each in a child task,
/// and `removed` for each router removed, until the task is cancelled: what every service that watches
/// each router's summary (``RouterRecovery``, ``HealthMonitor``) starts with.
package func followEveryRouter(
    of service: BorderRouterService, removed: @escaping @Sendable (DeviceID) async -> Void = { _ in },
    _ follow: @escaping @Sendable (DeviceID) async -> Void
) async {
    let registry = service.registryEvents(bufferLimit: 1024)
    await withDiscardingTaskGroup { group in
        var followed: Set<DeviceID> = []
        for id in await service.deviceIDs() where followed.insert(id).inserted {
            group.addTask { await follow(id) }
        }
        for await event in registry {
            switch event {
            case .added(let id):
                if followed.insert(id).inserted { group.addTask { await follow(id) } }
            case .removed(let id):
                await removed(id)
            case .online, .offline:
                continue
            }
        }
    }
}
