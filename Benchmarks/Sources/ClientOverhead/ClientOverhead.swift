import AsyncHTTPClient
import ContentKit
import Foundation
import NIOCore

/// The cost of the generated client over plain AsyncHTTPClient, call for call against a running emulator.
///
/// N sequential `listMoviesByGenreQuery.execute(genre:)` calls through the generated connector (its default fetch
/// policy, which asks the service and keeps the answer in the cache), against the same N requests through one
/// reused AsyncHTTPClient that only collects the bytes. The two take turns for several rounds in one process,
/// against one running emulator, and the medians are compared.
///
///     content serve --workspace examples --dataconnect-port 9399 &
///     swift run -c release ClientOverhead http://127.0.0.1:9399 [calls] [rounds]
@main
struct ClientOverhead {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let base = arguments.first else {
            FileHandle.standardError.write(Data("usage: ClientOverhead BASE-URL [calls] [rounds]\n".utf8))
            exit(2)
        }
        let calls = arguments.dropFirst().first.flatMap { Int($0) } ?? 1000
        let rounds = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 5
        let config = MoviesConnector.connectorConfig
        let url =
            "\(base)/v1/projects/content-sample/locations/\(config.location)/services/\(config.serviceId)"
            + "/connectors/movies:executeQuery"
        let body =
            #"{"name":"projects/content-sample/locations/\#(config.location)/services/"#
            + #"\#(config.serviceId)/connectors/movies","operationName":"listMoviesByGenre","#
            + #""variables":{"genre":"Sci-Fi"}}"#

        let dataConnect = DataConnect(connectorConfig: config, projectID: "content-sample")
        dataConnect.settings.endpoint = .url(base)
        let movies = MoviesConnector(dataConnect: dataConnect)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        var generated: [Duration] = []
        var raw: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            generated.append(
                try await clock.measure {
                    for _ in 0..<calls {
                        let answer = try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi").data
                        guard answer.movies.count == 3 else { throw Unexpected(answer: "\(answer)") }
                    }
                })
            raw.append(
                try await clock.measure {
                    for _ in 0..<calls {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: body))
                        let response = try await http.execute(request, timeout: .seconds(30))
                        let bytes = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok, bytes.readableBytes > 0 else {
                            throw Unexpected(answer: "HTTP \(response.status)")
                        }
                    }
                })
        }
        try await dataConnect.shutdown()
        try await http.shutdown()
        let generatedMedian = median(generated)
        let rawMedian = median(raw)
        print("calls per round: \(calls), rounds: \(rounds)")
        print("generated client: median \(milliseconds(generatedMedian)) ms, each round \(generated.map(milliseconds))")
        print("AsyncHTTPClient:  median \(milliseconds(rawMedian)) ms, each round \(raw.map(milliseconds))")
        print("ratio of the medians: \(String(format: "%.2f", generatedMedian / rawMedian))x")
    }

    struct Unexpected: Error {
        var answer: String
    }

    static func median(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        return sorted[sorted.count / 2]
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration / .milliseconds(1))
    }
}
