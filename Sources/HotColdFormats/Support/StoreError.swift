/// Errors of the store's own operations (imports have ``ImportError``).
///
/// Every message is a sentence a user can act on:
/// ```swift
/// print(StoreError.invalidRating(7).description)
/// // "A rating is 0 to 5 stars; 7 is not."
/// ```
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchPlace(String)
    case noSuchObservation(String)
    case invalidRating(Int)
    case noteTooLong(characters: Int, limit: Int)
    case readOnlyName(id: String, name: String)
    case notALocation(id: String, kind: String)
    /// A cache's waypoint (its parking, a stage, the final) is rated, favourited and noted with its cache.
    case stageOfCache(id: String, cache: String)
    case submissionNeedsPlace
    case invalidCoordinate(String)
    case bundledCatalogueNotFound(searched: [String])
    case unreadablePhoto(path: String, reason: String)
    case emptyCatalogue
    /// A write would take `user` past a ``StoreQuotas`` limit; `quota` is its configuration key.
    case quotaReached(quota: String, limit: Int, user: String)
    /// Only the user who created a custom location may rename or delete it.
    case notOwner(id: String, owner: String?, user: String)
    /// A custom location others have visited, favoured, rated or noted is not deleted.
    case placeInUse(id: String, otherUsers: Int)
    /// An id prefix that begins several places' ids (at most three named).
    case ambiguousID(String, matches: [String])

    public var description: String {
        switch self {
        case .noSuchPlace(let id):
            "No place has the id or the name \(id); hotcold things --search \"\(id)\" looks for it in names, towns and codes."
        case .noSuchObservation(let id):
            "No observation has the id \(id); hotcold observations lists them with their ids."
        case .invalidRating(let stars):
            "A rating is 0 to 5 stars; \(stars) is not."
        case .noteTooLong(let characters, let limit):
            "A note holds at most \(limit) characters; this one has \(characters)."
        case .readOnlyName(let id, let name):
            "\(name) (\(id)) came with a locations feed; its name is read-only."
        case .notALocation(let id, let kind):
            "\(id) is a \(kind); only custom locations can be renamed."
        case .stageOfCache(let id, let cache):
            "\(id) is a stage of the cache \(cache) (its parking, a stage or the final): rate, favourite and note the cache itself."
        case .submissionNeedsPlace:
            "A submission needs a coordinate or an address."
        case .invalidCoordinate(let text):
            "\(text) is not a coordinate (expected LAT,LON in decimal degrees)."
        case .bundledCatalogueNotFound(let searched):
            "The bundled Big Things catalogue (bigthings.json) was not found; looked in: "
                + searched.joined(separator: ", ")
        case .unreadablePhoto(let path, let reason):
            "Cannot read the photo \(path): \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason). Nothing was queued."
        case .emptyCatalogue:
            "The server's catalogue lists no Big Things; refusing to mark every Big Thing withdrawn."
        case .quotaReached(let quota, let limit, let user):
            "Quota reached: \(quota) is \(limit) and \(user) has used it up; nothing was stored."
        case .placeInUse(let id, let otherUsers):
            "\(id) has visits, favourites, ratings or notes of \(otherUsers) other user\(otherUsers == 1 ? "" : "s"); it stays."
        case .ambiguousID(let text, let matches):
            "\(text) fits several places (\(matches.joined(separator: ", "))\(matches.count >= 3 ? ", …" : "")); give more of the id."
        case .notOwner(let id, let owner, let user):
            "\(id) was added by \(owner ?? "nobody known"), not \(user); only its creator may change it."
        }
    }
}
