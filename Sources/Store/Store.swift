// Store (in progress).
