//! The wizard driven by the official Python SDK (`mcp` 2.3.0, `tests/peers/python/drive.py`)
//! over loopback Streamable HTTP on 2026-07-28. `Client.call_tool` runs every round itself;
//! the script only answers the questions.

mod peers_driver;

peers_driver::peer_tests!(
    peers_driver::Peer {
        client: "python",
        program: mrtr_tests::peers::python,
        script: "python/drive.py",
        round_cap_error: "Server returned InputRequiredResult for more than 10 rounds",
    },
    /// `Client(url, mode="2026-07-28")`: the version adopted without a probe.
    pin,
    /// `Client(url, mode="auto")`: the `server/discover` probe picks 2026-07-28.
    auto,
);
