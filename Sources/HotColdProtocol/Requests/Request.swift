#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One command line from a client, decoded and validated (see PROTOCOL.md).
///
/// ```swift
/// switch Request.decode(line: #"{"cmd":"roam","radius":"20km"}"#) {
/// case .success(.roam(let r)): print(r.radius)        // 20000.0
/// case .success: break
/// case .failure(let e): print(e.code, e.message)      // e.g. out_of_range, "roam: radius: …"
/// }
/// ```
public enum Request: Sendable, Equatable {
    case version
    case status
    case poll
    case watch(WatchRequest)
    case hunt(HuntRequest)
    case roam(RoamRequest)
    case store(StoreRequest)
    case search(SearchRequest)
    case place(PlaceRequest)
    case near(NearRequest)
    case visits
    case observations
    case outbox
    case export(ExportRequest)
    case download(DownloadRequest)
    case upload(UploadRequest)
    case chunk(ChunkRequest)
    case `import`(ImportRequest)
    case submit(SubmitRequest)
    case report(ReportRequest)
    case targets(TargetsRequest)
    case follow(FollowRequest)
    case following(FollowingRequest)
    case friendFix(FriendFixRequest)
    case feedItem(FeedItemRequest)
    case feed(FeedRequest)
    case like(LikeRequest)
    case likeReceived(LikeReceivedRequest)
    case sync(SyncRequest)
    case actFor(ActForRequest)

    public var command: Command {
        switch self {
        case .version: .version
        case .status: .status
        case .poll: .poll
        case .watch: .watch
        case .hunt: .hunt
        case .roam: .roam
        case .store: .store
        case .search: .search
        case .place: .place
        case .near: .near
        case .visits: .visits
        case .observations: .observations
        case .outbox: .outbox
        case .export: .export
        case .download: .download
        case .upload: .upload
        case .chunk: .chunk
        case .import: .import
        case .submit: .submit
        case .report: .report
        case .targets: .targets
        case .follow(let f): f.follow ? .follow : .unfollow
        case .following: .following
        case .friendFix: .friendFix
        case .feedItem: .feedItem
        case .feed: .feed
        case .like(let l): l.like ? .like : .unlike
        case .likeReceived: .likeReceived
        case .actFor: .actFor
        case .sync: .sync
        }
    }

    /// Whether the request changes anything: a writer's command, except the `sync` ops that
    /// only read (only writers may send those too: the outbox is every user's).
    public var changesState: Bool {
        if case .sync(let s) = self { return s.op.changes }
        return command.writes
    }

    /// Decodes one line. Every failure is a `ProtocolError` with its code, command and field.
    public static func decode(line: some StringProtocol) -> Result<Request, ProtocolError> {
        let bytes = Array(line.utf8)
        if NestingGuard.depth(bytes, limit: Limits.nestingDepth) > Limits.nestingDepth {
            return .failure(ProtocolError(.tooLarge, command: nil, "nesting deeper than \(Limits.nestingDepth) levels"))
        }
        do {
            return .success(try JSONDecoder().decode(Envelope.self, from: Data(bytes)).request)
        } catch let e as ProtocolError {
            return .failure(e)
        } catch {
            let text = String(line)
            let preview = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return .failure(ProtocolError(.badJSON, command: nil,
                                          "not JSON: \(preview) (send one object per line, e.g. {\"cmd\":\"status\"})"))
        }
    }

    /// The request as one line (no newline), as a client sends it.
    public var line: String {
        let data = (try? JSONEncoder().encode(Envelope(request: self))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `{"cmd":…}` object around a request.
    struct Envelope: Codable {
        var request: Request

        init(request: Request) { self.request = request }

        init(from decoder: any Decoder) throws {
            let c: KeyedDecodingContainer<AnyKey>
            do { c = try decoder.container(keyedBy: AnyKey.self) } catch {
                throw ProtocolError(.badJSON, command: nil, "expected a JSON object with a \"cmd\" field")
            }
            guard let name = try? c.decode(String.self, forKey: AnyKey("cmd")) else {
                throw ProtocolError(.badField, command: nil, field: "cmd", "missing: expected e.g. {\"cmd\":\"watch\"}")
            }
            guard name.count <= 32, let cmd = Command(rawValue: name.lowercased()) else {
                let shown = name.count > 32 ? String(name.prefix(32)) + "…" : name
                let known = Command.allCases.map(\.rawValue).joined(separator: ", ")
                throw ProtocolError(.unknownCommand, command: nil, "unknown command \"\(shown)\" (known: \(known))")
            }
            request = try Request.decode(cmd, decoder)
        }

        func encode(to encoder: any Encoder) throws {
            switch request {
            case .version, .status, .poll, .visits, .observations, .outbox:
                _ = try FieldWriter(encoder, command: request.command.rawValue)
            case .watch(let r): try r.encode(to: encoder)
            case .hunt(let r): try r.encode(to: encoder)
            case .roam(let r): try r.encode(to: encoder)
            case .store(let r): try r.encode(to: encoder)
            case .search(let r): try r.encode(to: encoder)
            case .place(let r): try r.encode(to: encoder)
            case .near(let r): try r.encode(to: encoder)
            case .export(let r): try r.encode(to: encoder)
            case .download(let r): try r.encode(to: encoder)
            case .upload(let r): try r.encode(to: encoder)
            case .chunk(let r): try r.encode(to: encoder)
            case .import(let r): try r.encode(to: encoder)
            case .submit(let r): try r.encode(to: encoder)
            case .report(let r): try r.encode(to: encoder)
            case .targets(let r): try r.encode(to: encoder)
            case .follow(let r): try r.encode(to: encoder)
            case .following(let r): try r.encode(to: encoder)
            case .friendFix(let r): try r.encode(to: encoder)
            case .feedItem(let r): try r.encode(to: encoder)
            case .feed(let r): try r.encode(to: encoder)
            case .like(let r): try r.encode(to: encoder)
            case .likeReceived(let r): try r.encode(to: encoder)
            case .sync(let r): try r.encode(to: encoder)
            case .actFor(let r): try r.encode(to: encoder)
            }
        }
    }

    static func decode(_ cmd: Command, _ decoder: any Decoder) throws(ProtocolError) -> Request {
        switch cmd {
        case .version: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .version
        case .status: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .status
        case .poll: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .poll
        case .visits: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .visits
        case .observations: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .observations
        case .outbox: _ = try Fields(decoder, command: cmd.rawValue, allowed: []); return .outbox
        case .watch: return .watch(try WatchRequest(decoder))
        case .hunt: return .hunt(try HuntRequest(decoder))
        case .roam: return .roam(try RoamRequest(decoder))
        case .store: return .store(try StoreRequest(decoder))
        case .search: return .search(try SearchRequest(decoder))
        case .place: return .place(try PlaceRequest(decoder))
        case .near: return .near(try NearRequest(decoder))
        case .export: return .export(try ExportRequest(decoder))
        case .download: return .download(try DownloadRequest(decoder))
        case .upload: return .upload(try UploadRequest(decoder))
        case .chunk: return .chunk(try ChunkRequest(decoder))
        case .import: return .import(try ImportRequest(decoder))
        case .submit: return .submit(try SubmitRequest(decoder))
        case .report: return .report(try ReportRequest(decoder))
        case .targets: return .targets(try TargetsRequest(decoder))
        case .follow: return .follow(try FollowRequest(decoder, follow: true))
        case .unfollow: return .follow(try FollowRequest(decoder, follow: false))
        case .following: return .following(try FollowingRequest(decoder))
        case .friendFix: return .friendFix(try FriendFixRequest(decoder))
        case .feedItem: return .feedItem(try FeedItemRequest(decoder))
        case .feed: return .feed(try FeedRequest(decoder))
        case .like: return .like(try LikeRequest(decoder, like: true))
        case .unlike: return .like(try LikeRequest(decoder, like: false))
        case .likeReceived: return .likeReceived(try LikeReceivedRequest(decoder))
        case .sync: return .sync(try SyncRequest(decoder))
        case .actFor: return .actFor(try ActForRequest(decoder))
        }
    }
}

/// A request body: decoded (and validated) from a decoder positioned at the request object,
/// and encoded back with its `cmd`.
protocol RequestBody: Sendable, Equatable {
    init(_ decoder: any Decoder) throws(ProtocolError)
    func encode(to encoder: any Encoder) throws
}
