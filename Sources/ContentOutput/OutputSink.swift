#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where rendered bytes go: stdout in the CLI, memory in tests.
public protocol OutputSink {
    /// Appends bytes; a sink may hold them until ``flush()``.
    ///
    /// - Parameter bytes: The bytes.
    /// - Throws: ``OutputError`` when the destination is gone.
    mutating func write(_ bytes: some Collection<UInt8>) throws

    /// Sends anything held to the destination.
    ///
    /// - Throws: ``OutputError`` when the destination is gone.
    mutating func flush() throws
}

extension OutputSink {
    /// Appends UTF-8 text.
    ///
    /// - Parameter text: The text.
    /// - Throws: ``OutputError`` when the destination is gone.
    public mutating func write(_ text: String) throws {
        try write(text.utf8)
    }
}

/// Collects output in memory.
public struct MemorySink: OutputSink {
    /// Everything written.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    /// Appends bytes.
    ///
    /// - Parameter bytes: The bytes.
    public mutating func write(_ bytes: some Collection<UInt8>) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Does nothing: memory needs no flushing.
    public mutating func flush() {}

    /// The output as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes to a file descriptor in large blocks, never byte by byte.
///
/// A closed pipe (`content … | head -1`) surfaces as ``OutputError/brokenPipe``, which the CLI turns
/// into a quiet exit 0; `SIGPIPE` must be ignored for that (``ignoreBrokenPipeSignal()``).
public struct FileDescriptorSink: OutputSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// Creates a sink.
    ///
    /// - Parameters:
    ///   - descriptor: The file descriptor; by default where the command's data goes (`StandardStreams.output`).
    ///   - capacity: How many bytes to gather before writing.
    public init(descriptor: Int32 = StandardStreams.output, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Buffers bytes, writing when the buffer is full.
    ///
    /// - Parameter bytes: The bytes.
    /// - Throws: ``OutputError``.
    public mutating func write(_ bytes: some Collection<UInt8>) throws {
        // A block of a buffer's size or more (a whole document as JSON) goes out from where it is: copying it
        // into the buffer first would cost a copy and as much memory again.
        let wentOut = try bytes.withContiguousStorageIfAvailable { block -> Bool in
            guard block.count >= capacity else { return false }
            try flush()
            try Self.writeAll(UnsafeRawBufferPointer(block), to: descriptor)
            return true
        }
        if wentOut == true { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes everything buffered.
    ///
    /// - Throws: ``OutputError/brokenPipe`` when the reader has gone, ``OutputError/writeFailed(_:)`` otherwise.
    public mutating func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try Self.writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { throw OutputError.brokenPipe }
                throw OutputError.writeFailed(String(cString: strerror(code)))
            }
            offset += written
        }
    }

    /// Makes a closed pipe an `EPIPE` error instead of a fatal signal.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether a descriptor is a terminal.
    ///
    /// - Parameter descriptor: The descriptor.
    /// - Returns: Whether it is a TTY.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The terminal's width in columns, when the descriptor is a terminal that reports one.
    ///
    /// - Parameter descriptor: The descriptor.
    /// - Returns: The width, or `nil`.
    public static func terminalWidth(_ descriptor: Int32) -> Int? {
        var size = winsize()
        #if canImport(Darwin)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = UInt(TIOCGWINSZ)
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(descriptor, pointer, count)
    #elseif canImport(Musl)
        return Musl.write(descriptor, pointer, count)
    #else
        return Darwin.write(descriptor, pointer, count)
    #endif
}
