import TBRFoundation
import Glibc

/// tbrd's state directory must be its own and private: the database holds the homes' settings and
/// the ePSKc journal. A directory that already exists with a looser mode is tightened to 0700 (and
/// logged); one that is shared (sticky, like `/tmp`) or owned by another user is refused, because
/// changing its mode would break whoever else uses it.
enum StateDirectory {
    /// The mode tbrd keeps its state directory at.
    static let mode: mode_t = 0o700

    /// What ``secure(_:)`` did.
    enum Outcome: Equatable {
        /// Missing (the store creates it 0700) or already private.
        case unchanged
        /// Tightened from the given mode.
        case tightened(from: mode_t)
    }

    /// Makes `path` private if it exists.
    /// - Throws: a sentence when it is not a directory, is shared, belongs to another user, or cannot
    ///   be changed.
    static func secure(_ path: String) throws(StateDirectoryError) -> Outcome {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return .unchanged }
            throw StateDirectoryError("cannot inspect \(path): \(Errno(errno).description)")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw StateDirectoryError("\(path) is not a directory") }
        let current = st.st_mode & 0o7777
        guard current & ~mode != 0 else { return .unchanged }
        guard current & S_ISVTX == 0 else {
            throw StateDirectoryError("\(path) is a shared directory (sticky bit set); give tbrd a directory of its own")
        }
        guard st.st_uid == geteuid() else {
            throw StateDirectoryError(
                "\(path) has mode \(octal(current)) and belongs to uid \(st.st_uid), not tbrd's uid \(geteuid()); "
                    + "make it 0700 and owned by tbrd's user")
        }
        guard chmod(path, mode) == 0 else {
            throw StateDirectoryError("cannot make \(path) private (0700): \(Errno(errno).description)")
        }
        return .tightened(from: current)
    }

    static func octal(_ m: mode_t) -> String {
        let digits = String(m, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Why the state directory cannot be used, as one sentence.
struct StateDirectoryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
