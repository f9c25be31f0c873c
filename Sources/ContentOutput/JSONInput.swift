public import ContentCore
internal import ContentJSON
internal import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON document or NDJSON stream read from a file or stdin, for `content format`.
public enum JSONInput {
    /// Reads the input and renders its items as they are read, in constant memory: the `content format` path.
    ///
    /// `--items` is followed while reading and only the members `--fields` reads are built; a single
    /// value that is not a list (one object, say) is rendered whole, like any query's result.
    ///
    /// - Parameters:
    ///   - path: A file path, or `-` (or `nil`) for stdin.
    ///   - settings: How to render.
    /// - Throws: ``JSONInputError``, ``ContentOutput/OutputError``, or a failure to write.
    public static func render(_ path: String?, settings: OutputSettings) async throws {
        let name = sourceName(path)
        let file = try FileDescriptorInput(opening: name == "<stdin>" ? nil : name)
        // A file is copied out of the page cache on a thread of its own when a core is free for that: with two,
        // parsing and rendering already fill both, and a third thread only adds switching. A pipe is read as
        // it arrives.
        let input: any JSONByteInput =
            file.isRestartable && ProcessInfo.processInfo.activeProcessorCount > 2 ? ReadAheadFileInput(file) : file
        var reader = JSONItemReader(
            input: input, itemsPath: settings.itemsPath, keeping: settings.fields?.fields.map(\.path))
        let start: JSONItemReader.Start
        do {
            start = try reader.start()
        } catch {
            throw failure(error, source: name, itemsPath: settings.itemsPath)
        }
        switch start {
        case .value(let value):
            var whole = settings
            whole.itemsPath = nil
            try await printResult(ContentResult(body: .document(value)), settings: whole)
        case .items:
            // A large file going to CSV or TSV is shared between two threads by position; another file is read
            // ahead on another core; a pipe is read item by item, so each shows as soon as it arrives.
            if input.isRestartable, let size = file.size,
                let split = SplitItemRendering(after: &reader, path: name, size: size, settings: settings)
            {
                try await split.render(firstHalf: reader)
            } else if input.isRestartable {
                let itemsPath = settings.itemsPath
                let items = ReadAheadItemReader(reader) { failure($0, source: name, itemsPath: itemsPath) }
                try await printItems(items, settings: settings)
            } else {
                let items = ReportingReader(reader: reader, source: name, itemsPath: settings.itemsPath)
                try await printItems(items, settings: settings)
            }
        }
    }

    /// The name errors give the input: the path, or `<stdin>` for `-` or none.
    static func sourceName(_ path: String?) -> String {
        guard let path, path != "-" else { return "<stdin>" }
        return path
    }

    /// Maps a reader failure to what the CLI reports: the file, the line and column, and the exit category.
    static func failure(_ error: JSONItemReaderError, source: String, itemsPath: JSONPath?) -> any Error {
        switch error {
        case .malformed(let parseError):
            return JSONInputError(parseError, source: source)
        case .itemsNotFound(let available):
            return OutputError.itemsNotFound(path: itemsPath?.description ?? "", available: available)
        case .empty:
            return JSONInputError(source: source, message: "no JSON value in the input", category: .malformedInput)
        case .input(let readError):
            return JSONInputError(source: source, message: readError.description, category: .usage)
        }
    }

    /// Runs `body`, turning the reader's failures into what the CLI reports.
    ///
    /// A `JSONParseError` can only come from text the reader has already checked, so catching it is a safeguard;
    /// it is reported as malformed input too.
    static func reportingFailures<Result>(source: String, itemsPath: JSONPath?, _ body: () throws -> Result) throws
        -> Result
    {
        do {
            return try body()
        } catch let error as JSONItemReaderError {
            throw failure(error, source: source, itemsPath: itemsPath)
        } catch let error as JSONParseError {
            throw failure(.malformed(error), source: source, itemsPath: itemsPath)
        }
    }

    /// A reader whose failures carry the input's name.
    struct ReportingReader: ItemTextReader {
        var reader: JSONItemReader
        let source: String
        let itemsPath: JSONPath?
        /// The current item's text, for ``nextText(_:)``.
        private var text: [UInt8] = []

        init(reader: JSONItemReader, source: String, itemsPath: JSONPath?) {
            self.reader = reader
            self.source = source
            self.itemsPath = itemsPath
        }

        mutating func next() throws -> JSONValue? {
            try JSONInput.reportingFailures(source: source, itemsPath: itemsPath) { try reader.next() }
        }

        mutating func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
            text.removeAll(keepingCapacity: true)
            return try JSONInput.reportingFailures(source: source, itemsPath: itemsPath) {
                guard try reader.nextEncoded(into: &text) else { return false }
                try text.withUnsafeBytes(body)
                return true
            }
        }

        mutating func nextLocated(
            _ projection: inout JSONTextProjection, _ body: (UnsafeRawBufferPointer, JSONTextProjection) throws -> Void
        ) throws -> Bool {
            try JSONInput.reportingFailures(source: source, itemsPath: itemsPath) {
                try reader.nextItem(locating: &projection, body)
            }
        }
    }

    /// Reads and parses the input: one value is a document, several (NDJSON) are the items.
    ///
    /// - Parameter path: A file path, or `-` (or `nil`) for stdin.
    /// - Returns: The result to render.
    /// - Throws: ``JSONInputError``.
    public static func read(_ path: String?) throws(JSONInputError) -> ContentResult {
        let name = sourceName(path)
        let data: Data
        if name == "<stdin>" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: name) else {
                let reason = FileManager.default.fileExists(atPath: name) ? "cannot be read" : "does not exist"
                throw JSONInputError(source: name, message: "the file \(reason)", category: .usage)
            }
            data = contents
        }
        let values: [JSONValue]
        do {
            values = try JSONParser().parseSequence(Array(data))
        } catch {
            throw JSONInputError(error, source: name)
        }
        switch values.count {
        case 0:
            throw JSONInputError(source: name, message: "no JSON value in the input", category: .malformedInput)
        case 1:
            return ContentResult(body: .document(values[0]))
        default:
            return ContentResult(body: .document(.array(values)))
        }
    }
}

/// A file (or stdin) read with `read(2)` straight into the reader's buffer.
final class FileDescriptorInput: JSONByteInput {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let path: String?
    /// A regular file can be opened and read again; a pipe, FIFO or terminal cannot, even by path.
    let isRestartable: Bool
    /// A regular file's size when it was opened.
    let size: Int?

    /// Opens a file, or takes stdin for `nil`.
    init(opening path: String?) throws(JSONInputError) {
        self.path = path
        guard let path else {
            descriptor = 0
            ownsDescriptor = false
            isRestartable = false
            size = nil
            return
        }
        let opened = open(path, O_RDONLY)
        guard opened >= 0 else {
            let reason = errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
            throw JSONInputError(source: path, message: "the file \(reason)", category: .usage)
        }
        descriptor = opened
        ownsDescriptor = true
        var status = stat()
        isRestartable = fstat(opened, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        size = isRestartable ? Int(status.st_size) : nil
    }

    /// Opens a regular file to read from `offset` on.
    convenience init(opening path: String, at offset: Int) throws(JSONInputError) {
        try self.init(opening: path)
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw JSONInputError(
                source: path, message: "the file cannot be read from byte \(offset)", category: .usage)
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// A regular file never waits; a pipe has bytes ready when `poll` says so.
    func hasBytesReady() -> Bool {
        if isRestartable { return true }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// The file opened again from its start.
    func restarted() -> FileDescriptorInput? {
        guard isRestartable, let path else { return nil }
        return try? FileDescriptorInput(opening: path)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONInputReadError) -> Int {
        while true {
            #if canImport(Glibc)
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #elseif canImport(Musl)
                let count = Musl.read(descriptor, buffer.baseAddress, buffer.count)
            #else
                let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw JSONInputReadError("reading failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// Input that cannot be read or parsed: where, what is wrong, and the exit category.
public struct JSONInputError: ContentFailure, Equatable {
    /// The file name, or `<stdin>`.
    public var source: String
    /// What is wrong.
    public var message: String
    /// Usage for a missing file, malformed input for bad JSON.
    public var category: FailureCategory
    /// The line of the problem, when it is in the JSON.
    public var line: Int?
    /// The column of the problem, when it is in the JSON.
    public var column: Int?

    /// `file:line:column: message`.
    public var description: String {
        var place = source
        if let line, let column { place += ":\(line):\(column)" }
        return "\(place): \(message)"
    }
}

extension JSONInputError {
    /// Malformed JSON at a place in the input.
    init(_ error: JSONParseError, source: String) {
        self.init(
            source: source,
            message: "malformed JSON at line \(error.line), column \(error.column) (byte \(error.offset)): "
                + error.message,
            category: .malformedInput,
            line: error.line,
            column: error.column
        )
    }
}
