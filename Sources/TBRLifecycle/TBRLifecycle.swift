// TBRLifecycle (in progress).
