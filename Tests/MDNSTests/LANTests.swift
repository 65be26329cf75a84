import Testing

/// The tests that build an ``TBRTestKit/AvahiLAN`` (network namespaces, avahi-daemons, private buses,
/// otbr-sim, tbrd): one at a time, so that they add one LAN's worth of processes to the suite, not four.
@Suite(.serialized) enum LANTests {}
