// The control protocol lives in its own module so the command line can
// speak it without linking the adapters; the agent's users get it with
// the agent, as before.
@_exported import DeskDaysControl
