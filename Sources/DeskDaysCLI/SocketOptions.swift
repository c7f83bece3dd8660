import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import DeskDaysCore

/// `--socket PATH`: where the agent's control socket is (docs/cli.md "Where things live").
package struct SocketOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("socket"), help: ArgumentHelp(tr("The agent's control socket (default: $XDG_RUNTIME_DIR/deskdays/agent.sock).")))
    package var socket: String?

    package var socketPath: String { socket.map(expandTilde) ?? paths.socket }

    /// This command's link to the agent there (given to its `Session`, where a read asks whether the agent syncs).
    package func link() -> AgentLink { AgentLink(path: socketPath) }
}
