//! The transports the end-to-end tests run each scenario over: stateless Streamable HTTP on
//! 127.0.0.1, an in-memory duplex pipe and a real child process on stdio, each serving a fresh
//! wizard to a 2026-07-28 rmcp client; and [`transport_tests!`](crate::transport_tests), which
//! writes one test per scenario and transport.

use std::{future::Future, process::Stdio, time::Duration};

use mrtr_examples::{demo::elicitation_client, wizard::Wizard};
use rmcp::{
    ClientLifecycleMode, ClientServiceExt, ServiceExt,
    model::{ClientConfig, ProtocolVersion},
    service::{RoleClient, RunningService, Service},
    transport::{
        StreamableHttpClientTransport, TokioChildProcess,
        streamable_http_client::StreamableHttpClientTransportConfig,
    },
};

use crate::{clock::TestClock, loopback::Served};

/// A connected client with the demo's config (form elicitation declared).
pub type Client = RunningService<RoleClient, ClientConfig>;

/// Every test body runs under this bound.
pub async fn bounded(body: impl Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::time::timeout(Duration::from_secs(30), body)
        .await
        .map_err(|_| anyhow::anyhow!("the test did not finish within 30 seconds"))?
}

#[derive(Debug, Clone, Copy)]
pub enum Via {
    /// Stateless Streamable HTTP on 127.0.0.1, the server in this process.
    Http,
    /// `tokio::io::duplex`: the server in this process, newline-delimited JSON-RPC.
    Duplex,
    /// The `wizard-stdio` binary at this path as a child process, spoken to over its
    /// stdin/stdout: [`wizard_stdio!`](crate::wizard_stdio) in a test.
    Child(&'static str),
}

/// [`Via::Child`] with the `wizard-stdio` binary Cargo built for the calling test.
#[macro_export]
macro_rules! wizard_stdio {
    () => {
        $crate::transports::Via::Child(env!("CARGO_BIN_EXE_wizard-stdio"))
    };
}

fn discover() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

fn wizard_child(program: &str) -> anyhow::Result<TokioChildProcess> {
    let (child, _stderr) = TokioChildProcess::builder(tokio::process::Command::new(program))
        .stderr(Stdio::null())
        .spawn()?;
    Ok(child)
}

/// Serves a wizard on one end of an in-memory pipe and returns the other end.
fn wizard_on_duplex(clock: &TestClock) -> (tokio::io::DuplexStream, tokio::task::JoinHandle<()>) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let wizard = Wizard::new(clock.engine());
    let task = tokio::spawn(async move {
        // The server answers `server/discover` itself; it ends when the client hangs up.
        if let Ok(running) = wizard.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    (client_io, task)
}

/// A wizard and a client connected to it, with whatever keeps the server alive.
pub struct Connected<S: Service<RoleClient>> {
    pub client: RunningService<RoleClient, S>,
    /// `None` for the child process, whose clock the test cannot move.
    clock: Option<TestClock>,
    _server: Server,
}

enum Server {
    /// Stops the HTTP server when dropped.
    Http {
        _served: Served,
    },
    Task(tokio::task::JoinHandle<()>),
    /// The child is owned by the client's transport.
    Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Server::Task(task) = self {
            task.abort();
        }
    }
}

impl Connected<ClientConfig> {
    /// Connects the demo's client, which declares form elicitation, to a fresh wizard.
    pub async fn session(via: Via) -> anyhow::Result<Self> {
        Self::start(via, elicitation_client()).await
    }
}

impl<S: Service<RoleClient>> Connected<S> {
    /// Connects `handler` as a 2026-07-28 client (`server/discover`) to a fresh wizard.
    pub async fn start(via: Via, handler: S) -> anyhow::Result<Self> {
        let clock = TestClock::default();
        let (client, clock, server) = match via {
            Via::Http => {
                let served = Served::start(Wizard::new(clock.engine())).await?;
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(served.url.clone()),
                );
                let client = handler.serve_with_lifecycle(transport, discover()).await?;
                (client, Some(clock), Server::Http { _served: served })
            }
            Via::Duplex => {
                let (io, task) = wizard_on_duplex(&clock);
                let client = handler.serve_with_lifecycle(io, discover()).await?;
                (client, Some(clock), Server::Task(task))
            }
            Via::Child(program) => {
                let client = handler
                    .serve_with_lifecycle(wizard_child(program)?, discover())
                    .await?;
                (client, None, Server::Child)
            }
        };
        Ok(Self {
            client,
            clock,
            _server: server,
        })
    }

    /// The clock the server reads, if the test can move it.
    pub fn clock(&self) -> anyhow::Result<&TestClock> {
        self.clock
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("this transport's server reads the real clock"))
    }

    pub async fn close(self) -> anyhow::Result<()> {
        let Self {
            client, _server, ..
        } = self;
        client.cancel().await?;
        Ok(())
    }
}

/// One module per transport (`http`, `stdio_duplex`, `stdio_child`), one test per scenario,
/// each under [`bounded`] with a fresh wizard. The scenarios are functions of the invoking
/// module:
///
/// - `plain`: `async fn(&Client) -> anyhow::Result<()>`, on a [`Connected::session`];
/// - `clocked` (optional): `async fn(&Client, &TestClock) -> anyhow::Result<()>`, likewise,
///   where the server reads the test's clock: the child process reads the real clock, so these
///   run only in process;
/// - `via`: `async fn(Via) -> anyhow::Result<()>`, which connect by themselves.
#[macro_export]
macro_rules! transport_tests {
    (
        plain: [$($plain:ident),* $(,)?],
        $(clocked: [$($clocked:ident),* $(,)?],)?
        via: [$($via:ident),* $(,)?] $(,)?
    ) => {
        $crate::transport_tests!(@module http, $crate::transports::Via::Http,
            [$($plain),*], [$($($clocked),*)?], [$($via),*]);
        $crate::transport_tests!(@module stdio_duplex, $crate::transports::Via::Duplex,
            [$($plain),*], [$($($clocked),*)?], [$($via),*]);
        $crate::transport_tests!(@module stdio_child, $crate::wizard_stdio!(),
            [$($plain),*], [], [$($via),*]);
    };
    (
        @module $module:ident, $transport:expr,
        [$($plain:ident),*], [$($clocked:ident),*], [$($via:ident),*]
    ) => {
        mod $module {
            use $crate::transports::{Connected, bounded};

            $(
                #[tokio::test]
                async fn $plain() -> anyhow::Result<()> {
                    bounded(async {
                        let session = Connected::session($transport).await?;
                        super::$plain(&session.client).await?;
                        session.close().await
                    })
                    .await
                }
            )*

            $(
                #[tokio::test]
                async fn $clocked() -> anyhow::Result<()> {
                    bounded(async {
                        let session = Connected::session($transport).await?;
                        super::$clocked(&session.client, session.clock()?).await?;
                        session.close().await
                    })
                    .await
                }
            )*

            $(
                #[tokio::test]
                async fn $via() -> anyhow::Result<()> {
                    bounded(super::$via($transport)).await
                }
            )*
        }
    };
}
