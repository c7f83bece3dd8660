import ArgumentParser
import Foundation

extension QRCommand {
    /// `deskdays qr bench-frames` (hidden), for bench/qr.sh: times the camera
    /// frame path (a YUYV or MJPEG buffer → luma → zbar, the scanner reused)
    /// on a W×H frame holding one code, and writes the same frame as a PNG so
    /// `zbarimg` and `deskdays qr scan` can be timed on it too.
    package struct BenchFrames: HardwareCommand {
        package init() {}

        package static let configuration = CommandConfiguration(
            commandName: "bench-frames", abstract: "Time the camera frame path (benchmark).", shouldDisplay: false)

        @Option package var width = 640
        @Option package var height = 480
        @Option(help: "Frames to decode per format.")
        package var count = 200
        @Option(help: "Where to write the frame as a PNG.")
        package var png: String
        @Option(help: "Where to write the frame as raw YUYV (for the virtual camera).")
        package var yuyv: String?

        package func validate() throws {
            guard (160...4096).contains(width), (120...4096).contains(height), count > 0 else {
                throw ValidationError("--width 160…4096, --height 120…4096 and a positive --count, please.")
            }
        }
    }
}
