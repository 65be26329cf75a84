extension BorderRouterAgent {
    /// Reads the mesh tables fresh: one `GetProperties` for what every role answers, then `LeaderData`
    /// when attached (its getter fails while detached, and one failing getter fails a whole
    /// `GetProperties`). A router that detached between the two reads has no leader data.
    /// - Throws: ``AgentError``.
    public func readMeshTables() async throws(AgentError) -> MeshTables {
        let (role, extAddress, rloc16, neighbors, children, onMesh, routes) = try await read(
            .deviceRole, .extendedAddress, .rloc16, .neighborTable, .childTable, .onMeshPrefixes, .externalRoutes)
        var leader: LeaderData?
        if role.isAttached {
            do { leader = try await read(.leaderData) } catch where error.cause == .openThread(.detached) || error.cause == .openThread(.invalidState) {
                leader = nil
            }
        }
        return MeshTables(
            role: role, extAddress: extAddress, rloc16: rloc16, leaderData: leader, neighbors: neighbors, children: children,
            onMeshPrefixes: onMesh, externalRoutes: routes)
    }
}
