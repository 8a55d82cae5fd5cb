/// The caps of the `sync` command, held by both sides (see PROTOCOL.md, "sync").
///
/// Why these sizes: a request line is at most 64 KiB (the socket's line limit) and a reply
/// must stay well under a client's 1 MiB output queue, so payloads come back in 192 KiB
/// slices and the catalogue goes up as an ordinary upload in 32 KiB chunks.
public enum SyncLimits {
    /// Raw bytes per `payload` slice, and the largest payload `next` carries inline.
    public static let payloadSliceBytes = 192 << 10
    /// The largest payload the sync process assembles (a 10 MiB photo in base64 JSON fits).
    public static let maxPayloadBytes = 16 << 20
    /// The largest catalogue (as the web client's cap on the catalogue's body).
    public static let catalogueBytes = 16 << 20
    /// The server's reply kept with a delivered or failed item (longer replies are cut).
    public static let storedResponseBytes = 32 << 10
    /// Characters of a failure's message.
    public static let messageLength = 2_000
    public static let etagLength = 512
    public static let sourceLength = 2_048
    /// Largest catalogue vote count a delivery may report.
    public static let maxVotes = 1_000_000_000
    /// Ids and issues listed in the reply to `catalogue` (with full counts beside any list
    /// cut short); the whole report is offered as a download.
    public static let reportRows = 100
}
