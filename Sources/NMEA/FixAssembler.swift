/// Merges a receiver's sentences into one `Fix` per navigation cycle.
///
/// What one fix is: every sentence that carries the same UTC time of day
/// (GGA, RMC, GLL, GNS, ZDA), plus the time-less ones (GSA, VTG) that
/// arrive between them, form one cycle. A cycle ends when a sentence with
/// a different time arrives (or at `flush()`), so a fix is reported one
/// sentence late, which for a geofence is nothing. gpsd merges cycles the
/// same way but also reports part-way through a cycle; we report each
/// cycle once, with everything it said.
///
/// Within a cycle:
/// - Validity comes from the last position sentence: RMC/GLL status `A`,
///   GGA quality > 0, GNS mode not `N`, each with a latitude and longitude.
/// - Mode, when the position is valid: 3D when GGA/GNS gave an altitude
///   from at least four satellites (gpsd's rule); else the highest GSA fix
///   type (2 or 3) in the cycle; else 2D when a GGA/GNS said otherwise; and
///   a cycle of only RMC/GLL, which cannot tell 2D from 3D, keeps the
///   previous cycle's 3D (as gpsd does), else 2D. A GSA saying "no fix"
///   never overrides a valid position: multi-constellation receivers send
///   it for a system with no satellites in use.
///   Deliberate difference: gpsd also keeps a previous 3D through a cycle
///   whose GGA has three satellites or whose GSA states 2D; we report 2D.
/// - The date comes from RMC or ZDA, else is carried from the previous
///   cycle, advancing by a day when the time of day wraps past midnight.
/// - HDOP from GGA or GNS, else GSA; values outside 0.01…89.99 mean
///   "unknown" (receivers send 99.99 or 0.00 for that, as gpsd notes).
public struct FixAssembler: Sendable {
    private struct Cycle: Sendable {
        var time: UTCTime?
        var date: UTCDate?
        var started = false
        var sawPosition = false
        var valid = false
        var latitude: Double?
        var longitude: Double?
        var gsaMode: Int?
        var hdop: Double?
        var gsaHDOP: Double?
        var satellites: Int?
        var altitudeFromEnoughSatellites = false
        /// A GGA or GNS was seen: the cycle can tell 2D from 3D itself.
        var sawSolution = false
    }

    private var cycle = Cycle()
    private var carriedDate: UTCDate?
    private var carriedTime: UTCTime?
    private var previousMode: Fix.Mode = .noFix

    public init() {}

    /// Adds one decoded sentence; returns the previous cycle's fix when this
    /// sentence starts a new cycle.
    public mutating func add(_ message: NMEAMessage) -> Fix? {
        var finished: Fix?
        if let time = message.time {
            if let current = cycle.time, current != time {
                finished = close()
            }
            cycle.time = time
        }
        apply(message)
        return finished
    }

    /// Ends the current cycle (end of input, device lost).
    public mutating func flush() -> Fix? {
        close()
    }

    private mutating func apply(_ message: NMEAMessage) {
        cycle.started = true
        switch message {
        case .gga(let gga):
            setPosition(valid: (gga.quality ?? 0) > 0, gga.latitude, gga.longitude)
            if let hdop = gga.hdop, FixAssembler.isUsableDOP(hdop) { cycle.hdop = hdop }
            if let satellites = gga.satellites { cycle.satellites = satellites }
            if gga.altitude != nil, (gga.satellites ?? 0) >= 4 { cycle.altitudeFromEnoughSatellites = true }
            cycle.sawSolution = true
        case .rmc(let rmc):
            setPosition(valid: rmc.isValid, rmc.latitude, rmc.longitude)
            if let date = rmc.date { cycle.date = date }
        case .gll(let gll):
            setPosition(valid: gll.isValid, gll.latitude, gll.longitude)
        case .gns(let gns):
            setPosition(valid: gns.isValid, gns.latitude, gns.longitude)
            if let hdop = gns.hdop, FixAssembler.isUsableDOP(hdop) { cycle.hdop = hdop }
            if let satellites = gns.satellites { cycle.satellites = satellites }
            if gns.altitude != nil, (gns.satellites ?? 0) >= 4 { cycle.altitudeFromEnoughSatellites = true }
            cycle.sawSolution = true
        case .gsa(let gsa):
            if let type = gsa.fixType { cycle.gsaMode = max(cycle.gsaMode ?? 0, type) }
            if let hdop = gsa.hdop, FixAssembler.isUsableDOP(hdop) { cycle.gsaHDOP = hdop }
        case .vtg:
            break
        case .zda(let zda):
            if let date = zda.date { cycle.date = date }
        }
    }

    private mutating func setPosition(valid: Bool, _ latitude: Double?, _ longitude: Double?) {
        cycle.sawPosition = true
        if valid, let latitude, let longitude {
            cycle.valid = true
            cycle.latitude = latitude
            cycle.longitude = longitude
        } else {
            cycle.valid = false
        }
    }

    private mutating func close() -> Fix? {
        defer { cycle = Cycle() }
        guard cycle.started, cycle.time != nil || cycle.sawPosition else { return nil }
        var date = cycle.date
        if date == nil, let carried = carriedDate, let time = cycle.time {
            let wrapped = carriedTime.map { time.milliseconds + 43_200_000 < $0.milliseconds } ?? false
            date = wrapped ? UTCDate(dayNumber: carried.dayNumber + 1) : carried
        }
        if date != nil, cycle.time != nil {
            carriedDate = date
            carriedTime = cycle.time
        }
        var fix = Fix(date: date, time: cycle.time, mode: .noFix,
                      hdop: cycle.hdop ?? cycle.gsaHDOP, satellites: cycle.satellites)
        if cycle.valid {
            fix.latitude = cycle.latitude
            fix.longitude = cycle.longitude
            if cycle.altitudeFromEnoughSatellites {
                fix.mode = .threeD
            } else if let gsaMode = cycle.gsaMode, gsaMode >= 2 {
                fix.mode = gsaMode == 3 ? .threeD : .twoD
            } else if cycle.sawSolution {
                fix.mode = .twoD
            } else {
                fix.mode = previousMode == .threeD ? .threeD : .twoD
            }
        }
        previousMode = fix.mode
        return fix
    }

    private static func isUsableDOP(_ value: Double) -> Bool { value >= 0.01 && value <= 89.99 }
}

extension NMEAMessage {
    /// The UTC time of day a sentence carries, if it carries one.
    public var time: UTCTime? {
        switch self {
        case .gga(let m): m.time
        case .rmc(let m): m.time
        case .gll(let m): m.time
        case .gns(let m): m.time
        case .zda(let m): m.time
        case .gsa, .vtg: nil
        }
    }
}
