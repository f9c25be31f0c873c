public import ContentCore
internal import Foundation

/// A problem starting an emulator: a malformed workspace, a port in use, a database that cannot open.
public enum EmulatorError: ContentFailure, Equatable {
    /// The workspace is malformed; the message names the file and position.
    case workspace(String)
    /// The server could not start.
    case startFailed(String)
    /// A service could not listen on its address: a port in use, say.
    case cannotListen(service: String, address: String, reason: String, advice: String)
    /// The database could not be opened or written.
    case database(String)
    /// A database server could not be reached, or refused the login.
    case transport(String)
    /// An option's value cannot be used.
    case usage(String)

    /// Workspace problems are configuration problems; the rest are unexpected.
    public var category: FailureCategory {
        switch self {
        case .workspace: return .configuration
        case .cannotListen, .usage: return .usage
        case .transport: return .transport
        case .startFailed, .database: return .unexpected
        }
    }

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .workspace(let message): return "workspace: \(message)"
        case .startFailed(let message): return "cannot start the emulator: \(message)"
        case .cannotListen(let service, let address, let reason, let advice):
            return "\(service) emulator: cannot listen on \(address): \(reason); \(advice)"
        case .database(let message): return "emulator database: \(message)"
        case .transport(let message): return "emulator database: \(message)"
        case .usage(let message): return message
        }
    }
}

/// The SQLite file `content serve --data` keeps content in.
package enum EmulatorDataFile {
    /// Creates the file readable and writable by its owner only (0600), or narrows an existing one to that, before
    /// SQLite opens it; SQLite gives its `-wal` and `-shm` files the same mode.
    ///
    /// - Parameter path: The database file.
    /// - Throws: ``EmulatorError/database(_:)`` when the file cannot be created.
    package static func prepare(_ path: String) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw EmulatorError.database("\(path): cannot create the data file: \(reason); check --data")
        }
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
    }
}
