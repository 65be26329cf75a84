// BorderRouterService (in progress).
