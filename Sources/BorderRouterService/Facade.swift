// BorderRouterService is the facade of the domain modules below it: an app (tbrd, tbrctl) imports it,
// not its parts, and names the parts' values (a router's summary, an ePSKc event, a policy status, a
// commissioning stage) through it. The transports the service reaches agents through (DBus, HTTP,
// OpenThreadREST) are not re-exported: they appear only in its `package` wiring (the bus connection it
// is built over, a remote agent's URL).
@_exported import RouterFleet
@_exported import InternetAccessPolicy
@_exported import MatterCommissioning
@_exported import MatterCommissioner
@_exported import DeviceModel
