import Foundation
import Testing

/// `content aem` through the built binary, against `content serve` on loopback and the built-in sample.
struct AEMEndToEndTests {
    private func config(_ scratch: Scratch, url: String, auth: String = "") throws {
        try scratch.write("backends:\n  wknd:\n    type: aem\n    url: \(url)\n\(auth)", to: "content.yaml")
    }

    @Test func fragmentsAndOneFragmentThroughTheDeliveryAPI() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            let magazine = try ContentProcess.run(
                [
                    "aem", "fragments", "--path", "/content/dam/wknd-shared/en/magazine", "-o", "csv", "--fields",
                    "title",
                ],
                in: scratch.url)
            #expect(magazine.status == 0, "\(magazine.stderr)")
            #expect(
                magazine.stdout
                    == "title\nAloha Spirits in Northern Norway\nA Beginner's Guide to Ski Touring\n"
                    + "Western Australia by Camper Van\n")
            // Every page, following the API's cursor: the 16 adventures, 3 articles and 2 authors.
            let all = try ContentProcess.run(
                ["aem", "fragments", "--all", "--page-size", "7", "-o", "ndjson"], in: scratch.url)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stdout.split(separator: "\n").count == 21)
            let guide = try ContentProcess.run(
                [
                    "aem", "fragment", "/content/dam/wknd-shared/en/magazine/ski-touring/ski-touring-guide",
                    "--references", "direct-hydrated", "-o", "json",
                ], in: scratch.url)
            #expect(guide.status == 0, "\(guide.stderr)")
            #expect(guide.stdout.contains(#""type":"content-fragment""#) && guide.stdout.contains(#""lastName":"#))
            let missing = try ContentProcess.run(["aem", "fragment", "nope"], in: scratch.url)
            #expect(missing.status == 5)
            #expect(missing.stderr.contains("HTTP 404") && missing.stderr.contains("no content fragment nope"))
            let badMode = try ContentProcess.run(["aem", "fragment", "x", "--references", "all"], in: scratch.url)
            #expect(badMode.status == 2)
            #expect(badMode.stderr.contains("--references takes none, direct-hydrated or all-hydrated"))
            let badSize = try ContentProcess.run(["aem", "fragments", "--all", "--page-size", "60"], in: scratch.url)
            #expect(badSize.status == 2)
            #expect(badSize.stderr.contains("--page-size takes 1 to 50 for fragments"))
        }
    }

    /// Past the delivery API's rate limit the CLI waits as `Retry-After` says and carries on.
    @Test func aRateLimitedDeliveryAPIIsWaitedFor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // One a second, five pages: a page asked for within a second of the last is refused, unless a request took
        // a whole second.
        try ContentProcess.withServe(["--delivery-rate-limit", "1"]) { base in
            try config(scratch, url: base)
            let all = try ContentProcess.run(
                ["aem", "fragments", "--all", "--page-size", "5", "-o", "ndjson", "-v"], in: scratch.url)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stdout.split(separator: "\n").count == 21)
            #expect(all.stderr.contains("< 429"), "\(all.stderr)")
        }
    }

    @Test func builtInSampleAnswersWithoutAnyConfiguration() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["aem", "adventures", "-o", "csv"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stderr.contains("answering from the built-in WKND sample"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "title,activity,price,tripLength,primaryImage")
        #expect(lines.count == 17)
        #expect(result.stdout.contains("Bali Surf Camp,Surfing,5000,6 Days,"))
    }

    @Test func shortcutsRunAndListsAgainstServe() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            let one = try ContentProcess.run(["aem", "adventure", "cycling-tuscany", "-o", "ndjson"], in: scratch.url)
            #expect(one.status == 0)
            #expect(
                one.stdout.hasPrefix(
                    #"{"_path":"/content/dam/wknd-shared/en/adventures/cycling-tuscany/cycling-tuscany","title":"Cycling Tuscany""#
                ))
            #expect(one.stderr.isEmpty)

            let run = try ContentProcess.run(
                [
                    "aem", "run", "wknd-shared/adventures-by-activity", "--param", "activity=surfing", "-o", "csv",
                    "--fields", "title,price",
                ],
                in: scratch.url
            )
            #expect(run.stdout == "title,price\nBali Surf Camp,5000\nSurf Camp in Costa Rica,3400\n")

            let list = try ContentProcess.run(["aem", "list", "-o", "csv", "--fields", "name"], in: scratch.url)
            #expect(list.stdout.contains("/wknd-shared/adventures-all\n"))

            let missing = try ContentProcess.run(["aem", "run", "wknd-shared/nope"], in: scratch.url)
            #expect(missing.status == 5)
            #expect(
                missing.stderr.contains(
                    "persisted query wknd-shared/nope not found on 127.0.0.1; `content aem list` shows what exists"))

            let failing = try ContentProcess.run(["aem", "run", "wknd-shared/adventure-by-slug"], in: scratch.url)
            #expect(failing.status == 6)
            #expect(failing.stdout.isEmpty)

            let badShortcut = try ContentProcess.run(["aem", "adventurez"], in: scratch.url)
            #expect(badShortcut.status == 2)
            #expect(badShortcut.stderr.contains("no shortcut 'adventurez'"))
        }
    }

    @Test func dryRunPrintsACurlThatRunsAsIsWithoutTheToken() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let token = "s3cret-author-t0ken"
        try ContentProcess.withServe(["--mode", "author", "--token", token]) { base in
            try config(scratch, url: base, auth: "    auth: { type: token, token: \"${AEM_TOKEN}\" }\n")
            let environment = ["AEM_TOKEN": token]
            let dry = try ContentProcess.run(
                ["aem", "adventure", "bali-surf-camp", "--dry-run"],
                in: scratch.url,
                environment: environment
            )
            #expect(dry.status == 0)
            #expect(dry.stdout.contains("$AEM_TOKEN"))
            #expect(!dry.stdout.contains(token))
            #expect(dry.stdout.contains("%3Bslug%3Dbali-surf-camp;"))
            let curl = try ContentProcess.run(shell: "export AEM_TOKEN='\(token)'; " + dry.stdout, in: scratch.url)
            #expect(curl.stdout.contains(#""title":"Bali Surf Camp""#))

            let real = try ContentProcess.run(
                ["aem", "adventures", "-v", "-o", "json"], in: scratch.url, environment: environment)
            #expect(real.status == 0)
            #expect(!real.stderr.contains(token))
            #expect(real.stderr.contains("Bearer <redacted>"))

            let anonymous = try ContentProcess.run(["aem", "adventures"], in: scratch.url)
            #expect(anonymous.status == 3)
            #expect(anonymous.stderr.contains("AEM_TOKEN"))
        }
    }

    @Test func allFollowsCursorsAcrossEveryPage() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            let result = try ContentProcess.run(
                [
                    "aem", "run", "wknd-shared/adventures-paginated", "--all", "--page-size", "5", "-o", "ndjson",
                    "--fields", "title",
                ],
                in: scratch.url
            )
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 16)
            #expect(Set(lines).count == 16)
            let unpageable = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventures-all", "--all"], in: scratch.url)
            #expect(unpageable.status == 2)
            #expect(unpageable.stderr.contains("--all pages a …Paginated query"))
            let badSize = try ContentProcess.run(["aem", "adventures", "--all", "--page-size", "500"], in: scratch.url)
            #expect(badSize.status == 2)
        }
    }

    @Test func persistThenRunOnAnAuthorTier() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe(["--mode", "author"]) { base in
            try config(
                scratch, url: base, auth: "    auth: { type: basic, username: admin, password: \"${AEM_PASSWORD}\" }\n")
            let query = try scratch.write(
                "{ adventureList(sort: \"price ASC\", limit: 2) { items { title price } } }", to: "cheap.graphql")
            let environment = ["AEM_PASSWORD": "admin"]
            let persisted = try ContentProcess.run(
                ["aem", "persist", "wknd-shared/cheapest", query.path, "--cache-max-age", "300", "-o", "json"],
                in: scratch.url,
                environment: environment
            )
            #expect(persisted.status == 0)
            #expect(persisted.stdout.contains(#""action":"create""#))
            let run = try ContentProcess.run(
                ["aem", "run", "wknd-shared/cheapest", "-o", "csv"],
                in: scratch.url,
                environment: environment
            )
            #expect(run.stdout == "title,price\nGastronomic Marais Tour,95\nNapa Wine Tasting,152.59\n")
            let dry = try ContentProcess.run(
                ["aem", "persist", "wknd-shared/not-yet", query.path, "--dry-run"],
                in: scratch.url,
                environment: environment
            )
            #expect(dry.status == 0)
            #expect(dry.stdout.hasPrefix("curl -sS --compressed -X PUT"))
            #expect(dry.stdout.contains("$AEM_PASSWORD"))
            #expect(dry.stdout.contains("--data-binary"))
            let notSent = try ContentProcess.run(
                ["aem", "run", "wknd-shared/not-yet"], in: scratch.url, environment: environment)
            #expect(notSent.status == 5)
            let again = try ContentProcess.run(
                ["aem", "persist", "wknd-shared/cheapest", query.path], in: scratch.url, environment: environment)
            #expect(again.status == 5)
        }
    }

    @Test func adHocQueriesAndPostedVariables() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            let adHoc = try ContentProcess.run(
                ["aem", "graphql", "{ adventureList(sort: \"title\", limit: 2) { items { title } } }", "-o", "csv"],
                in: scratch.url
            )
            #expect(adHoc.stdout == "title\nBali Surf Camp\nBeervana in Portland\n")
            let refused = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventure-by-slug", "--param-string", "slug=a;b"],
                in: scratch.url
            )
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--post"))
            let posted = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventure-by-slug", "--param-string", "slug=a;b", "--post"],
                in: scratch.url
            )
            #expect(posted.status == 0)
            #expect(posted.stderr.contains("no items"))
        }
    }

    @Test func imagesGainAbsoluteURLsAndDownload() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            let path = "/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp"
            let result = try ContentProcess.run(
                [
                    "aem", "run", "wknd-shared/adventure-by-path", "--param", "adventurePath=\(path)", "--image-width",
                    "800",
                    "--image-format", "png", "-o", "csv", "--fields", "image=primaryImage.url",
                ],
                in: scratch.url
            )
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "image")
            let url = try #require(lines.last)
            #expect(url.hasPrefix(base + "/adobe/dynamicmedia/deliver/dm-aid--"))
            #expect(url.hasSuffix("/adobestock-175749320.png?preferwebp=true&width=800&quality=80"))
            let raw = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventure-by-path", "--param", "adventurePath=\(path)", "--raw"],
                in: scratch.url
            )
            #expect(!raw.stdout.contains(#""url""#))

            let file = scratch.url.appendingPathComponent("bali.png").path
            let download = try ContentProcess.run(["aem", "image", url, "-O", file], in: scratch.url)
            #expect(download.status == 0)
            let bytes = try #require(FileManager.default.contents(atPath: file))
            #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    @Test func responsesAreCachedAndRevalidated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var first = ""
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            first = try ContentProcess.run(["aem", "adventures", "-o", "csv"], in: scratch.url).stdout
            #expect(first.split(separator: "\n").count == 17)
        }
        // The server is gone: a fresh cached copy still answers, and --no-cache really asks.
        let cached = try ContentProcess.run(["aem", "adventures", "-o", "csv", "-v"], in: scratch.url)
        #expect(cached.status == 0)
        #expect(cached.stdout == first)
        #expect(cached.stderr.contains("cache: fresh copy"))
        let uncached = try ContentProcess.run(["aem", "adventures", "--no-cache"], in: scratch.url)
        #expect(uncached.status == 4)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: scratch.url.appendingPathComponent(".cache/content/aem").path)
        #expect(files.count == 1)
    }

    @Test func paramsAreTypedByTheQuerysDeclarations() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            // `price` is declared Float, so "400" goes as a number; `slug` String, so "123" stays text.
            let price = try ContentProcess.run(
                [
                    "aem", "run", "wknd-shared/adventure-by-price", "--param", "price=400", "--param",
                    "priceOperator=LOWER_EQUAL",
                    "-o", "csv", "--fields", "title",
                ],
                in: scratch.url
            )
            #expect(
                price.stdout
                    == "title\nGastronomic Marais Tour\nNapa Wine Tasting\nBeervana in Portland\n\"Downhill Skiing in Jackson Hole, Wyoming\"\n"
            )
            let slug = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventure-by-slug", "--param", "slug=123"], in: scratch.url)
            #expect(slug.status == 0)
            #expect(slug.stderr.contains("no items"))
            let wrong = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventure-by-price", "--param", "price=cheap"], in: scratch.url)
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("the query declares Float, got 'cheap'"))
        }
    }

    @Test func realTitlesAndPricesInEveryFormat() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            try config(scratch, url: base)
            for format in ["table", "json", "ndjson", "csv", "tsv", "markdown"] {
                let result = try ContentProcess.run(["aem", "adventures", "-o", format, "--no-cache"], in: scratch.url)
                #expect(result.status == 0, "\(format)")
                for fact in ["Bali Surf Camp", "5000", "Napa Wine Tasting", "152.59", "Yosemite Backpacking"] {
                    #expect(result.stdout.contains(fact), "\(format) lacks \(fact)")
                }
            }
        }
    }

    @Test func unreachableServerIsATransportError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try config(scratch, url: "http://127.0.0.1:1")
        let result = try ContentProcess.run(["aem", "adventures"], in: scratch.url)
        #expect(result.status == 4)
        #expect(result.stderr.contains("could not connect"))
    }
}
