/// Every test target that uses TestSupport starts programs through Spawn (Sources/Spawn).
@_exported import Spawn
