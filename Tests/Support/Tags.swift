import Testing

extension Tag {
    /// Suites that drive simulated hardware in real time (pcscd polling, a
    /// PN532 on a pty, qemu VMs under TCG, the agent's device-loss bench).
    /// `make test` runs them one at a time after the rest, so a loaded
    /// machine cannot starve their timing; the Makefile finds them by this tag.
    @Tag public static var hardwareBench: Self
}
