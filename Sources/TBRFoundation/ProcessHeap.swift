internal import CMalloc

/// glibc's allocator, tuned for a long-running daemon with a handful of threads (tbrd). Measured in
/// docs/performance.md ("Where tbrd's resident memory goes", step 6).
public enum ProcessHeap {
    /// One malloc arena for every thread instead of one per thread that allocates (up to eight per
    /// core): tbrd's threads rarely allocate at the same moment, and each extra arena keeps its own
    /// partly used pages. Call it first thing in `main`, before any thread starts.
    public static func useOneArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }

    /// Gives the kernel back the pages that only hold freed memory (the start-up's parsing, schema
    /// checks and first replies), wherever they are in the heap, not only at its top.
    public static func returnFreePages() {
        _ = malloc_trim(0)
    }
}
