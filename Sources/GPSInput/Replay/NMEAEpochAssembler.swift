import Foundation
import HotColdCore

/// Gathers the sentences of one NMEA epoch (those sharing a UTC time of day) into one `Fix`.
///
/// - Position comes from GGA (quality 0, 7 manual or 8 simulator: no fix), RMC or GLL (status
///   `V`, or mode indicator `N`/`S`: no fix). GLL counts because some receivers send it alone
///   for some epochs (humminbird-M37, triton400), and gpsd reports those. A void sentence's
///   position is stale and is dropped, and if any sentence of an epoch says void the epoch is
///   void; a GGA with an empty quality field (firefly-II) leaves the verdict to the others.
///   Void epochs still produce a fix, of mode `.noFix` and without coordinate, so a consumer
///   sees the receiver lose lock.
/// - Mode comes from GSA when the epoch has one, else 3D when GGA gives an altitude, else 2D.
/// - GST's one-sigma latitude/longitude errors become epy/epx as 95 % figures by × 1.96, the
///   normal two-sided 95 % factor for one axis (gpsd's epx/epy are per-axis 95 % values).
///
/// Dates come from RMC or ZDA. An epoch without its own date takes the last known one, moved on a
/// day when the time of day falls back by more than 12 hours (midnight passed); smaller steps
/// back are kept as they are (receivers do send time backwards, and the engine drops such fixes).
/// Epochs before the first date are held until a date arrives and then dated backwards from it.
/// If none arrives within `maximumHeld` epochs or before the end, the held epochs are dated from
/// 1970-01-01 (plus midnight rollovers): obviously not a real date, and still ordered.
struct NMEAEpochAssembler {
    static let maximumHeld = 10_000
    /// 95 % over one normally distributed axis.
    static let sigmaTo95 = 1.96
    static let metresPerSecondPerKnot = 1852.0 / 3600.0

    private struct Epoch {
        var timeOfDay: Double
        var day: Int64?
        var gga: NMEASentence.GGA?
        var rmc: NMEASentence.RMC?
        var gll: NMEASentence.GLL?
        var gsa: NMEASentence.GSA?
        var gst: NMEASentence.GST?
    }

    private var current: Epoch?
    /// A GSA that came before any timed sentence of its epoch.
    private var waitingGSA: NMEASentence.GSA?
    private var knownDay: Int64?
    private var lastTimeOfDay: Double?
    /// Fixes without a date yet: their `time` holds only the time of day.
    private var held: [Fix] = []
    private var ready: [Fix] = []
    private var readyHead = 0

    init() {}

    mutating func add(_ sentence: NMEASentence) {
        switch sentence {
        case .gga(let g): withEpoch(g.timeOfDay) { $0.gga = g }
        case .rmc(let r): withEpoch(r.timeOfDay) { $0.rmc = r; if let d = r.day { $0.day = d } }
        case .gll(let g): withEpoch(g.timeOfDay) { $0.gll = g }
        case .gst(let g): withEpoch(g.timeOfDay) { $0.gst = g }
        case .zda(let z): withEpoch(z.timeOfDay) { if let d = z.day { $0.day = d } }
        case .gsa(let g):
            if current != nil { current!.gsa = g } else { waitingGSA = g }
        case .other: break
        }
    }

    /// Closes the last epoch and dates whatever is still held (see the type's notes).
    mutating func finish() {
        closeCurrent()
        if !held.isEmpty { releaseHeld(fallback: true) }
    }

    /// The next completed fix, in input order.
    mutating func nextFix() -> Fix? {
        guard readyHead < ready.count else { return nil }
        let fix = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        return fix
    }

    private mutating func withEpoch(_ timeOfDay: Double?, _ update: (inout Epoch) -> Void) {
        guard let timeOfDay else { return }
        if let c = current, c.timeOfDay != timeOfDay { closeCurrent() }
        if current == nil {
            current = Epoch(timeOfDay: timeOfDay)
            if let g = waitingGSA { current!.gsa = g; waitingGSA = nil }
        }
        update(&current!)
    }

    private mutating func closeCurrent() {
        guard let epoch = current else { return }
        current = nil
        guard var fix = makeFix(epoch) else { return }
        if let day = epoch.day {
            knownDay = day
        } else if let day = knownDay, let last = lastTimeOfDay {
            knownDay = day + Self.dayStep(from: last, to: epoch.timeOfDay)
        }
        lastTimeOfDay = epoch.timeOfDay
        guard let day = knownDay else {
            held.append(fix)
            if held.count >= Self.maximumHeld { releaseHeld(fallback: true) }
            return
        }
        if !held.isEmpty { releaseHeld(fallback: false) }
        fix.time = Date(timeIntervalSince1970: Double(day) * 86400 + epoch.timeOfDay)
        ready.append(fix)
    }

    /// +1 when the time of day wrapped past midnight, -1 when it went back across it, else 0.
    private static func dayStep(from last: Double, to next: Double) -> Int64 {
        if next < last - 43_200 { return 1 }
        if next > last + 43_200 { return -1 }
        return 0
    }

    /// Dates the held fixes: backwards from the first known date, or forwards from 1970-01-01.
    private mutating func releaseHeld(fallback: Bool) {
        if fallback {
            var day: Int64 = 0
            var last: Double?
            for i in held.indices {
                let tod = held[i].time.timeIntervalSince1970
                if let last { day += Self.dayStep(from: last, to: tod) }
                last = tod
                held[i].time = Date(timeIntervalSince1970: Double(day) * 86400 + tod)
            }
            // Later undated epochs continue from the fallback day.
            knownDay = day
        } else {
            var day = knownDay!
            var next = lastTimeOfDay!
            for i in held.indices.reversed() {
                let tod = held[i].time.timeIntervalSince1970
                day -= Self.dayStep(from: tod, to: next)
                next = tod
                held[i].time = Date(timeIntervalSince1970: Double(day) * 86400 + tod)
            }
        }
        ready.append(contentsOf: held)
        held.removeAll(keepingCapacity: false)
    }

    /// Status `A` and a mode indicator that is not N (not valid) or S (simulator).
    private static func isActive(_ status: UInt8, _ mode: UInt8) -> Bool {
        status == 0x41 && mode != 0x4E && mode != 0x53
    }

    /// The epoch's fix with `time` set to the time of day only; nil when no GGA or RMC came.
    private func makeFix(_ e: Epoch) -> Fix? {
        guard e.gga != nil || e.rmc != nil || e.gll != nil else { return nil }
        // Valid only when some sentence vouches for the position and none calls it void.
        var vouched = false
        var voided = false
        if let g = e.gga, let q = g.quality {
            if (1...6).contains(q) && g.coordinate != nil { vouched = true } else { voided = true }
        }
        if let r = e.rmc {
            if Self.isActive(r.status, r.modeIndicator) && r.coordinate != nil { vouched = true } else { voided = true }
        }
        if let l = e.gll {
            if Self.isActive(l.status, l.modeIndicator) && l.coordinate != nil { vouched = true } else { voided = true }
        }
        let coordinate = e.gga?.coordinate ?? e.rmc?.coordinate ?? e.gll?.coordinate
        let when = Date(timeIntervalSince1970: e.timeOfDay)
        guard vouched, !voided, let coordinate, coordinate.isValid else {
            return Fix(time: when, coordinate: nil, mode: .noFix)
        }
        var mode: Fix.Mode = e.gga?.altitude != nil ? .threeD : .twoD
        if let fixType = e.gsa?.fixType {
            mode = Fix.Mode(rawValue: fixType) ?? mode
        }
        guard mode >= .twoD else { return Fix(time: when, coordinate: nil, mode: .noFix) }
        // DOP 0 is a placeholder some receivers send for "unknown".
        var hdop = e.gga?.hdop
        if !(hdop ?? 0 > 0) { hdop = e.gsa?.hdop }
        if !(hdop ?? 0 > 0) { hdop = nil }
        return Fix(time: when, coordinate: coordinate, mode: mode,
                   epx: e.gst?.longitudeSigma.map { $0 * Self.sigmaTo95 },
                   epy: e.gst?.latitudeSigma.map { $0 * Self.sigmaTo95 },
                   hdop: hdop,
                   speed: e.rmc?.speedKnots.map { $0 * Self.metresPerSecondPerKnot },
                   track: e.rmc?.track,
                   altitude: mode == .threeD ? e.gga?.altitude : nil,
                   satellites: e.gga?.satellites)
    }
}
