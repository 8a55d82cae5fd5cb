import HotColdCore

/// One NMEA 0183 sentence reduced to the fields a fix needs. Times are seconds of the UTC day.
enum NMEASentence: Equatable {
    struct GGA: Equatable {
        var timeOfDay: Double?
        var coordinate: Coordinate?
        /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK, 5 float RTK, 6 dead reckoning, 7 manual, 8 simulator;
        /// nil when the field is empty (some receivers leave it blank and rely on RMC).
        var quality: Int?
        var satellites: Int?
        var hdop: Double?
        var altitude: Double?
    }
    struct RMC: Equatable {
        var timeOfDay: Double?
        /// `A` active or `V` void, as the ASCII byte.
        var status: UInt8
        var coordinate: Coordinate?
        var speedKnots: Double?
        var track: Double?
        /// Days since 1970-01-01.
        var day: Int64?
        /// NMEA 2.3 mode indicator (A, D, E, F, R, M, S, N), 0 when absent.
        var modeIndicator: UInt8
    }
    struct GLL: Equatable {
        var timeOfDay: Double?
        var status: UInt8
        var coordinate: Coordinate?
        var modeIndicator: UInt8
    }
    struct GSA: Equatable {
        /// 1 no fix, 2 2D, 3 3D; nil when empty.
        var fixType: Int?
        var hdop: Double?
    }
    struct GST: Equatable {
        var timeOfDay: Double?
        /// One-sigma latitude and longitude errors, metres.
        var latitudeSigma: Double?
        var longitudeSigma: Double?
    }
    struct ZDA: Equatable {
        var timeOfDay: Double?
        var day: Int64?
    }

    case gga(GGA), rmc(RMC), gll(GLL), gsa(GSA), gst(GST), zda(ZDA)
    /// A well-formed sentence we have no use for (GSV, VTG, TXT, proprietary `$P…`).
    case other
}

/// Turns the bytes of one sentence (`$` up to before the line end) into an `NMEASentence`.
///
/// Works on byte slices and reuses one field-offset array, because a log holds millions of
/// sentences and most of them are GSV noise that must cost next to nothing.
struct NMEAParser {
    enum Failure: Error, Equatable {
        case badChecksum, truncated, unparsable
    }

    /// Set by the last successful `parse` when the sentence had no `*hh` checksum.
    private(set) var lastHadNoChecksum = false
    private var fieldStarts: [Int] = []
    private var fieldEnds: [Int] = []

    init() {
        fieldStarts.reserveCapacity(32)
        fieldEnds.reserveCapacity(32)
    }

    /// - Parameters:
    ///   - s: the sentence, starting with `$` (or `!`), trailing `\r` or spaces allowed.
    ///   - cutOff: true when something else started before the line ended (another `$`) or the
    ///     file ended without a newline: a sentence without checksum is then taken as truncated.
    mutating func parse(_ s: UnsafeBufferPointer<UInt8>, cutOff: Bool) -> Result<NMEASentence, Failure> {
        var end = s.count
        while end > 1, s[end - 1] == 0x0D || s[end - 1] == 0x20 || s[end - 1] == 0x0A { end -= 1 }
        var sum: UInt8 = 0
        var i = 1
        var star = -1
        while i < end {
            let c = s[i]
            if c == 0x2A { star = i; break }
            // Line noise (NULs, high bytes) inside a sentence: when no checksum follows, the
            // sentence was cut off and the noise is what replaced its end.
            guard c >= 0x20, c < 0x7F else {
                let rest = UnsafeBufferPointer(rebasing: s[i..<end])
                return .failure(rest.contains(0x2A) ? .unparsable : .truncated)
            }
            sum ^= c
            i += 1
        }
        let bodyEnd: Int
        if star >= 0 {
            guard star + 2 < end, let hi = hex(s[star + 1]), let lo = hex(s[star + 2]) else {
                return .failure(star + 3 > end ? .truncated : .unparsable)
            }
            // Anything after the checksum means two sentences were spliced together.
            guard star + 3 == end else { return .failure(.unparsable) }
            guard hi << 4 | lo == sum else { return .failure(.badChecksum) }
            bodyEnd = star
            lastHadNoChecksum = false
        } else {
            if cutOff { return .failure(.truncated) }
            bodyEnd = end
            lastHadNoChecksum = true
        }

        fieldStarts.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        var fieldStart = 1
        for j in 1..<max(bodyEnd, 1) where s[j] == 0x2C {
            fieldStarts.append(fieldStart)
            fieldEnds.append(j)
            fieldStart = j + 1
        }
        fieldStarts.append(fieldStart)
        fieldEnds.append(max(bodyEnd, fieldStart))

        // Address: two-letter talker (any: GP, GN, GL, GA, BD, GB, QZ…) plus a three-letter type.
        guard fieldEnds[0] - fieldStarts[0] == 5, s[fieldStarts[0]] != 0x50 else { return .success(.other) }
        let t0 = s[fieldStarts[0] + 2], t1 = s[fieldStarts[0] + 3], t2 = s[fieldStarts[0] + 4]
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): return parseGGA(s)
        case (0x52, 0x4D, 0x43): return parseRMC(s)
        case (0x47, 0x4C, 0x4C): return parseGLL(s)
        case (0x47, 0x53, 0x41): return parseGSA(s)
        case (0x47, 0x53, 0x54): return parseGST(s)
        case (0x5A, 0x44, 0x41): return parseZDA(s)
        default: return .success(.other)
        }
    }

    private func field(_ s: UnsafeBufferPointer<UInt8>, _ k: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: s[fieldStarts[k]..<fieldEnds[k]])
    }

    /// Parses an optional number field: empty → nil, garbage → failure.
    private func number(_ s: UnsafeBufferPointer<UInt8>, _ k: Int) throws(Failure) -> Double? {
        let f = field(s, k)
        if f.isEmpty { return nil }
        guard let v = DecimalBytes.double(f) else { throw .unparsable }
        return v
    }

    private func integer(_ s: UnsafeBufferPointer<UInt8>, _ k: Int) throws(Failure) -> Int? {
        let f = field(s, k)
        if f.isEmpty { return nil }
        guard let v = DecimalBytes.int(f) else { throw .unparsable }
        return v
    }

    /// `hhmmss[.sss]` → seconds of the day.
    private func timeOfDay(_ s: UnsafeBufferPointer<UInt8>, _ k: Int) throws(Failure) -> Double? {
        let f = field(s, k)
        if f.isEmpty { return nil }
        guard f.count >= 6,
              let h = DecimalBytes.int(UnsafeBufferPointer(rebasing: f[f.startIndex..<f.startIndex + 2])),
              let m = DecimalBytes.int(UnsafeBufferPointer(rebasing: f[f.startIndex + 2..<f.startIndex + 4])),
              let sec = DecimalBytes.double(UnsafeBufferPointer(rebasing: f[(f.startIndex + 4)...])),
              h < 24, m < 60, sec >= 0, sec < 61
        else { throw .unparsable }
        return Double(h * 3600 + m * 60) + sec
    }

    /// `ddmm.mmmm` or `dddmm.mmmm` plus a hemisphere letter → signed degrees.
    private func angle(_ s: UnsafeBufferPointer<UInt8>, _ k: Int, positive: UInt8, negative: UInt8,
                       limit: Double) throws(Failure) -> Double? {
        let f = field(s, k)
        let h = field(s, k + 1)
        if f.isEmpty { return nil }
        guard let raw = DecimalBytes.double(f), raw >= 0, h.count == 1,
              h[0] == positive || h[0] == negative else { throw .unparsable }
        let degrees = (raw / 100).rounded(.towardZero)
        let minutes = raw - degrees * 100
        guard minutes < 60 else { throw .unparsable }
        let value = degrees + minutes / 60
        guard value <= limit else { throw .unparsable }
        return h[0] == negative ? -value : value
    }

    private func coordinate(_ s: UnsafeBufferPointer<UInt8>, at k: Int) throws(Failure) -> Coordinate? {
        let lat = try angle(s, k, positive: 0x4E, negative: 0x53, limit: 90)
        let lon = try angle(s, k + 2, positive: 0x45, negative: 0x57, limit: 180)
        guard let lat, let lon else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private func parseGGA(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 10 else { return .failure(.truncated) }
        do throws(Failure) {
            return .success(.gga(.init(
                timeOfDay: try timeOfDay(s, 1), coordinate: try coordinate(s, at: 2),
                quality: try integer(s, 6), satellites: try integer(s, 7),
                hdop: try number(s, 8), altitude: try number(s, 9))))
        } catch { return .failure(error) }
    }

    private func parseRMC(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 10 else { return .failure(.truncated) }
        do throws(Failure) {
            let status = field(s, 2)
            guard status.count == 1 else { throw .unparsable }
            let mode = fieldStarts.count > 12 ? field(s, 12) : UnsafeBufferPointer(start: nil, count: 0)
            return .success(.rmc(.init(
                timeOfDay: try timeOfDay(s, 1), status: status[0], coordinate: try coordinate(s, at: 3),
                speedKnots: try number(s, 7), track: try number(s, 8), day: try rmcDate(s, 9),
                modeIndicator: mode.count == 1 ? mode[0] : 0)))
        } catch { return .failure(error) }
    }

    /// `ddmmyy`; two-digit years 80–99 are 19xx, the rest 20xx (GPS began in 1980).
    /// Dates are taken as sent: receivers past a week rollover report 1024 weeks early and
    /// gpsd's own replays 1024 weeks late, and guessing which is right is not a reader's job.
    private func rmcDate(_ s: UnsafeBufferPointer<UInt8>, _ k: Int) throws(Failure) -> Int64? {
        let f = field(s, k)
        if f.isEmpty { return nil }
        guard f.count == 6, let v = DecimalBytes.int(f) else { throw .unparsable }
        let d = v / 10000, m = (v / 100) % 100, yy = v % 100
        guard (1...12).contains(m), (1...31).contains(d) else { throw .unparsable }
        return ISO8601.days(fromCivil: Int64(yy >= 80 ? 1900 + yy : 2000 + yy), Int64(m), Int64(d))
    }

    private func parseGLL(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 7 else { return .failure(.truncated) }
        do throws(Failure) {
            let status = field(s, 6)
            guard status.count == 1 else { throw .unparsable }
            let mode = fieldStarts.count > 7 ? field(s, 7) : UnsafeBufferPointer(start: nil, count: 0)
            return .success(.gll(.init(timeOfDay: try timeOfDay(s, 5), status: status[0],
                                       coordinate: try coordinate(s, at: 1),
                                       modeIndicator: mode.count == 1 ? mode[0] : 0)))
        } catch { return .failure(error) }
    }

    private func parseGSA(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 18 else { return .failure(.truncated) }
        do throws(Failure) {
            let fix = try integer(s, 2)
            if let fix, !(1...3).contains(fix) { throw .unparsable }
            return .success(.gsa(.init(fixType: fix, hdop: try number(s, 16))))
        } catch { return .failure(error) }
    }

    private func parseGST(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 8 else { return .failure(.truncated) }
        do throws(Failure) {
            return .success(.gst(.init(timeOfDay: try timeOfDay(s, 1),
                                       latitudeSigma: try number(s, 6), longitudeSigma: try number(s, 7))))
        } catch { return .failure(error) }
    }

    private func parseZDA(_ s: UnsafeBufferPointer<UInt8>) -> Result<NMEASentence, Failure> {
        guard fieldStarts.count >= 5 else { return .failure(.truncated) }
        do throws(Failure) {
            let time = try timeOfDay(s, 1)
            let d = try integer(s, 2), m = try integer(s, 3), y = try integer(s, 4)
            var day: Int64?
            if let d, let m, let y {
                guard (1...31).contains(d), (1...12).contains(m), y >= 1980, y < 10000 else { throw .unparsable }
                day = ISO8601.days(fromCivil: Int64(y), Int64(m), Int64(d))
            }
            return .success(.zda(.init(timeOfDay: time, day: day)))
        } catch { return .failure(error) }
    }

    private func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
