//! The wizard driven by the official TypeScript SDK v2 client (`@modelcontextprotocol/client`
//! 2.4.0, `tests/peers/typescript/drive.mjs`) over loopback Streamable HTTP on 2026-07-28. The
//! SDK's own input-required driver runs every round; the script only answers the questions.

mod peers_driver;

peers_driver::peer_tests!(
    peers_driver::Peer {
        client: "typescript",
        program: mrtr_tests::peers::node,
        script: "typescript/drive.mjs",
        round_cap_error: "still required input after 10 rounds (inputRequired.maxRounds)",
    },
    /// `versionNegotiation: { mode: { pin: '2026-07-28' } }`.
    pin,
    /// `versionNegotiation: { mode: 'auto' }`: the `server/discover` probe picks 2026-07-28.
    auto,
);
