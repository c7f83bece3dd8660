import ArgumentParser
import DeskDaysAgent

/// `--socket PATH`: where the agent's control socket is (CLI.md "Where things live").
struct SocketOptions: ParsableArguments {
    @Option(name: .customLong("socket"), help: "The agent's control socket (default: $XDG_RUNTIME_DIR/deskdays/agent.sock).")
    var socket: String?

    var socketPath: String { socket.map(expandTilde) ?? ControlSocketPath.default() }
}
