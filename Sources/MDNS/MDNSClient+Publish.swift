internal import CAvahiClient

/// A published service: what it should be, the name it has after collisions, and its entry group on
/// the current connection.
struct Publication {
    var registration: ServiceRegistration
    /// The name in use: the registration's, or Avahi's alternative after a collision.
    var name: String
    var group: EntryGroupHandle?
    /// What the group holds now (nil: nothing registered on this connection yet).
    var registered: ServiceRegistration?
}

/// Identifies a service published with ``MDNSClient/publish(_:)``.
public struct PublicationID: Hashable, Sendable {
    let rawValue: UInt64
}

extension MDNSClient {
    /// Publishes `registration` (now if avahi-daemon runs, otherwise once it does; again after it
    /// restarts) until ``withdraw(_:)``.
    public func publish(_ registration: ServiceRegistration) -> PublicationID {
        let id = newToken()
        publications[id] = Publication(registration: registration, name: registration.name)
        if serverState == AVAHI_CLIENT_S_RUNNING.rawValue { register(id) }
        return PublicationID(rawValue: id)
    }

    /// Changes a published service. A change of the TXT record alone is made in place (Avahi announces
    /// the new record); any other change withdraws the service and publishes it again.
    public func update(_ id: PublicationID, to registration: ServiceRegistration) {
        guard var publication = publications[id.rawValue], publication.registration != registration else { return }
        if registration.name != publication.registration.name { publication.name = registration.name }
        publication.registration = registration
        publications[id.rawValue] = publication
        guard serverState == AVAHI_CLIENT_S_RUNNING.rawValue else { return }
        if let group = publication.group, let registered = publication.registered, registered.type == registration.type,
            registered.port == registration.port, registered.name == registration.name
        {
            do {
                try group.updateTXT(registration, as: publication.name)
                publications[id.rawValue]?.registered = registration
            } catch {
                logger.warning("cannot update a published TXT record", [("name", publication.name), ("error", error.message)])
            }
        } else {
            register(id.rawValue)
        }
    }

    /// Withdraws a published service (Avahi sends goodbye packets).
    public func withdraw(_ id: PublicationID) {
        guard let publication = publications.removeValue(forKey: id.rawValue) else { return }
        if let token = publication.group?.context.token { groupOwners[token] = nil }
    }

    /// The name a published service has now (its own, or Avahi's alternative after a name collision).
    public func publishedName(_ id: PublicationID) -> String? { publications[id.rawValue]?.name }

    /// Registers every publication that has nothing registered on this connection.
    func registerPublications() {
        for id in publications.keys.sorted() where publications[id]?.registered == nil { register(id) }
    }

    /// Drops every entry group (the daemon went away or is registering its host name again).
    func withdrawEntryGroups() {
        for id in publications.keys {
            publications[id]?.group = nil
            publications[id]?.registered = nil
        }
        groupOwners.removeAll()
    }

    /// (Re)registers publication `id` in its entry group, creating the group if needed.
    private func register(_ id: UInt64) {
        guard let client, let publication = publications[id] else { return }
        do {
            let group: EntryGroupHandle
            if let existing = publication.group {
                group = existing
            } else {
                let token = newToken()
                group = try EntryGroupHandle.open(client: client, context: context(token))
                groupOwners[token] = id
                publications[id]?.group = group
            }
            try group.register(publication.registration, as: publication.name)
            publications[id]?.registered = publication.registration
        } catch {
            logger.warning("cannot publish a service", [("name", publication.name), ("error", error.message)])
        }
    }

    /// An entry group's state changed (posted by its callback).
    func entryGroupEvent(token: UInt64, _ input: EntryGroupInput) {
        guard let id = groupOwners[token], let publication = publications[id] else { return }
        switch input {
        case .established:
            logger.debug("service published", [("name", publication.name), ("type", publication.registration.type.rawValue)])
        case .collision:
            let alternative = Avahi.c.avahi_alternative_service_name(publication.name)
            let next = alternative.map { String(cString: $0) } ?? publication.name + " #2"
            Avahi.c.avahi_free(alternative)
            logger.info("service name in use on the network; publishing under another", [("name", publication.name), ("new-name", next)])
            publications[id]?.name = next
            register(id)
        case .failed(let code):
            logger.warning("publishing a service failed", [("name", publication.name), ("error", MDNSError.avahi(code, "publishing").message)])
            publications[id]?.registered = nil
        }
    }
}
