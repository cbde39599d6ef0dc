//! Real services for the fleet tests: `redis-server`, `nginx` and `wizard-http` processes on
//! free loopback ports.
//!
//! Each runs in the foreground as a child of the test, with its config and logs in a temporary
//! folder, and is waited for until it answers (at most [`READY_WITHIN`]). Dropping it kills it
//! by its PID and reaps it. Redis and nginx come from Debian's `redis-server` and `nginx`
//! packages, and libfaketime, which sets an instance's clock off, from `libfaketime`
//! (`apt-get install redis-server nginx libfaketime`; `.ci/run` installs them).

use std::{
    collections::BTreeMap,
    fs::{File, OpenOptions},
    net::{SocketAddr, TcpListener},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::Context as _;
use rmcp::{
    ErrorData, ServiceError,
    model::{CallToolRequestParams, ErrorCode},
};
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _};

use crate::{
    rounds::{Reply, send},
    transports::Client,
};

/// How long a service may take to start answering: generous, as a CI machine of two CPUs
/// starts Redis and two instances for each of several tests at once (10 s was once too few).
pub const READY_WITHIN: Duration = Duration::from_secs(30);

/// The `MRTR_KEYS` every instance of a test fleet shares.
pub const FLEET_KEYS: &str = "1:OCbGF2kQG33vrB4cfMOHxPl3TtISfetZO/atW5kOPRc=";

/// The path of the `wizard-http` binary Cargo built for the calling test.
#[macro_export]
macro_rules! wizard_http {
    () => {
        ::std::path::Path::new(env!("CARGO_BIN_EXE_wizard-http"))
    };
}

/// A port on 127.0.0.1 that nothing listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("bind a free port on 127.0.0.1")
}

/// `name` on the `PATH`, or in `/usr/sbin` or `/usr/bin` (where Debian puts these packages);
/// an error that says what to install if it is nowhere.
fn program(name: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .with_context(|| {
            format!(
                "`{name}` is not installed; the fleet tests run real Redis and nginx processes: \
                 `apt-get install -y redis-server nginx` (.ci/run does)"
            )
        })
}

/// Debian's `libfaketime`, which a process loads (`LD_PRELOAD`) to see its clock set off by
/// `FAKETIME`, such as `-50s`: a host whose clock is wrong.
pub fn libfaketime() -> anyhow::Result<PathBuf> {
    // Under the architecture's folder: /usr/lib/x86_64-linux-gnu/faketime/, and so on.
    let in_arch_folders = std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .map(|arch| arch.path().join("faketime/libfaketime.so.1"));
    in_arch_folders
        .chain([PathBuf::from("/usr/lib/faketime/libfaketime.so.1")])
        .find(|path| path.is_file())
        .context(
            "libfaketime is not installed; the clock skew tests set an instance's clock off with \
             it: `apt-get install -y libfaketime` (.ci/run does)",
        )
}

/// A process's wall clock set `offset` off (`FAKETIME`, such as `-50s`), its monotonic clock
/// left alone: the environment that does it, for [`WizardInstance::start_with_env`].
pub struct ClockOff {
    library: String,
    offset: String,
}

impl ClockOff {
    pub fn by(offset: &str) -> anyhow::Result<Self> {
        Ok(Self {
            library: libfaketime()?.display().to_string(),
            offset: offset.to_owned(),
        })
    }

    pub fn env(&self) -> [(&str, &str); 3] {
        [
            ("LD_PRELOAD", &self.library),
            ("FAKETIME", &self.offset),
            ("FAKETIME_DONT_FAKE_MONOTONIC", "1"),
        ]
    }
}

fn temp_dir(what: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mrtr-{what}-"))
        .tempdir()
        .expect("create a temporary folder")
}

/// Kills `child` (SIGKILL) and reaps it. Nothing happens if it already exited.
fn kill(child: &mut Option<Child>) {
    if let Some(mut child) = child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Polls `ready` until it answers true, failing early if `child` exits, and after
/// [`READY_WITHIN`]. `log` is quoted in the error.
async fn wait_until_ready<F, Fut>(
    what: &str,
    child: &mut Child,
    log: &Path,
    mut ready: F,
) -> anyhow::Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let give_up = Instant::now() + READY_WITHIN;
    loop {
        if let Some(status) = child.try_wait()? {
            anyhow::bail!(
                "{what} exited ({status}) before it answered:\n{}",
                read(log)
            );
        }
        // Asked once more after the deadline: a slow start that answers just then is ready.
        let late = Instant::now() > give_up;
        if ready().await {
            return Ok(());
        }
        if late {
            anyhow::bail!(
                "{what} did not answer within {READY_WITHIN:?}:\n{}",
                read(log)
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether `GET path` on `port` answers with a body that holds `expected`.
async fn answers_with(port: u16, path: &str, expected: String) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let answer = async {
        let mut stream =
            tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))).await?;
        let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        let mut response = String::new();
        stream.read_to_string(&mut response).await?;
        anyhow::Ok(response)
    };
    match tokio::time::timeout(Duration::from_secs(2), answer).await {
        Ok(Ok(response)) => response.contains(&expected),
        _ => false,
    }
}

// =============================================================================
// Redis
// =============================================================================

/// A `redis-server` on a free loopback port, nothing saved to disk.
pub struct RedisServer {
    port: u16,
    /// The TLS port, if it has one.
    tls_port: Option<u16>,
    /// Its `requirepass`, if it has one.
    password: Option<String>,
    dir: TempDir,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts Redis and waits until it answers `PING`.
    pub async fn start() -> anyhow::Result<Self> {
        Self::start_with(None, "", None).await
    }

    /// Starts Redis with more lines of `redis.conf`, such as `maxmemory-policy allkeys-lru`.
    pub async fn start_with_config(lines: &str) -> anyhow::Result<Self> {
        Self::start_with(None, lines, None).await
    }

    /// Starts Redis with `requirepass password`: clients must `AUTH` first.
    pub async fn start_with_password(password: &str) -> anyhow::Result<Self> {
        Self::start_with(None, &format!("requirepass {password}\n"), Some(password)).await
    }

    /// Starts Redis with a TLS port too, whose certificate, for `127.0.0.1`, a private CA made
    /// for this server signed ([`RedisServer::ca_file`]). Certificates come from `openssl`.
    pub async fn start_tls() -> anyhow::Result<Self> {
        Self::start_with(Some(free_port()), "", None).await
    }

    async fn start_with(
        tls_port: Option<u16>,
        lines: &str,
        password: Option<&str>,
    ) -> anyhow::Result<Self> {
        let dir = temp_dir("redis");
        let port = free_port();
        let mut config = format!(
            "port {port}\n\
             bind 127.0.0.1\n\
             save \"\"\n\
             appendonly no\n\
             daemonize no\n\
             dir {dir}\n\
             logfile {log}\n",
            dir = dir.path().display(),
            log = dir.path().join("redis.log").display(),
        );
        if let Some(tls_port) = tls_port {
            make_certificates(dir.path())?;
            let file = |name: &str| dir.path().join(name).display().to_string();
            config += &format!(
                "tls-port {tls_port}\n\
                 tls-cert-file {cert}\n\
                 tls-key-file {key}\n\
                 tls-ca-cert-file {ca}\n\
                 tls-auth-clients no\n",
                cert = file("server.crt"),
                key = file("server.key"),
                ca = file("ca.crt"),
            );
        }
        config += lines;
        std::fs::write(dir.path().join("redis.conf"), config)?;
        let mut redis = Self {
            port,
            tls_port,
            password: password.map(str::to_owned),
            dir,
            child: None,
        };
        redis.restart().await?;
        Ok(redis)
    }

    /// `redis://127.0.0.1:PORT/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// `rediss://127.0.0.1:TLS_PORT/0`, if it was started with [`RedisServer::start_tls`].
    pub fn tls_url(&self) -> Option<String> {
        self.tls_port
            .map(|port| format!("rediss://127.0.0.1:{port}/0"))
    }

    /// How many keys Redis holds (`DBSIZE`, over the plain port).
    pub async fn key_count(&self) -> anyhow::Result<usize> {
        let count = self.command(&["DBSIZE"]).await?;
        count
            .parse()
            .with_context(|| format!("DBSIZE answered {count:?}"))
    }

    /// Runs one command over the plain port (after `AUTH`, with a password) and returns its
    /// answer: a number or text as it is, an array's items one a line. An error answer is an
    /// `Err` with Redis's message.
    pub async fn command(&self, args: &[&str]) -> anyhow::Result<String> {
        let mut stream =
            tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], self.port))).await?;
        let mut stream = tokio::io::BufStream::new(&mut stream);
        if let Some(password) = &self.password {
            write_command(&mut stream, &["AUTH", password]).await?;
            read_answer(&mut stream).await?;
        }
        write_command(&mut stream, args).await?;
        read_answer(&mut stream).await
    }

    /// Bytes clients sent that Redis has not read yet, on its plain port, from the kernel's
    /// socket table (`/proc/net/tcp`): while Redis is frozen, more than 0 says a command reached
    /// it and waits.
    pub fn unread_bytes(&self) -> anyhow::Result<u64> {
        let table = std::fs::read_to_string("/proc/net/tcp").context("reading /proc/net/tcp")?;
        let port = format!(":{:04X}", self.port);
        let mut unread = 0;
        for line in table.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // local address, remote address, state, tx_queue:rx_queue
            let (Some(local), Some(queues)) = (fields.get(1), fields.get(4)) else {
                continue;
            };
            if local.ends_with(&port) {
                let rx = queues.split(':').nth(1).unwrap_or("0");
                unread += u64::from_str_radix(rx, 16).context("an rx_queue in /proc/net/tcp")?;
            }
        }
        Ok(unread)
    }

    /// The PEM file of the CA that signed the TLS port's certificate.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.crt")
    }

    /// Kills Redis (SIGKILL). Its records are gone: it saves nothing.
    pub fn stop(&mut self) {
        kill(&mut self.child);
    }

    /// Suspends Redis (SIGSTOP): it keeps its port and records, but answers nothing, as a
    /// server that hangs. [`RedisServer::thaw`] resumes it.
    pub fn freeze(&self) -> anyhow::Result<()> {
        self.signal("-STOP")
    }

    /// Resumes Redis after [`RedisServer::freeze`]: it runs every command sent meanwhile.
    pub fn thaw(&self) -> anyhow::Result<()> {
        self.signal("-CONT")
    }

    fn signal(&self, signal: &str) -> anyhow::Result<()> {
        let child = self.child.as_ref().context("redis-server is not running")?;
        let status = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .context("run kill")?;
        anyhow::ensure!(status.success(), "kill {signal} {}: {status}", child.id());
        Ok(())
    }

    /// Starts Redis again on the same port, empty, and waits until it answers. Stops it first
    /// if it runs.
    pub async fn restart(&mut self) -> anyhow::Result<()> {
        self.stop();
        let mut child = Command::new(program("redis-server")?)
            .arg(self.dir.path().join("redis.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("spawn redis-server")?;
        let port = self.port;
        let log = self.dir.path().join("redis.log");
        // Its own log line first: another test's Redis may hold the port and answer the ping.
        let before = read(&log).matches(REDIS_READY).count();
        let ready = wait_until_ready("redis-server", &mut child, &log, || {
            let started = read(&log).matches(REDIS_READY).count() > before;
            async move { started && ping(port).await }
        })
        .await;
        self.child = Some(child);
        ready
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A CA (`ca.crt`) and a certificate it signed for `127.0.0.1` (`server.crt`, `server.key`)
/// in `dir`, valid for a day.
fn make_certificates(dir: &Path) -> anyhow::Result<()> {
    let openssl = |args: &[&str]| -> anyhow::Result<()> {
        let output = Command::new(program("openssl")?)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .context("run openssl")?;
        anyhow::ensure!(
            output.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(())
    };
    let key = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
    ];
    openssl(
        &[
            &["req", "-x509"][..],
            &key,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
                "-days",
                "1",
                "-subj",
                "/CN=mrtr test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign",
            ],
        ]
        .concat(),
    )?;
    openssl(
        &[
            &["req"][..],
            &key,
            &[
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=127.0.0.1",
            ],
        ]
        .concat(),
    )?;
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "1",
        "-extfile",
        "server.ext",
    ])
}

/// What redis-server logs once it listens.
const REDIS_READY: &str = "Ready to accept connections";

/// Whether Redis on `port` answers `PING`: with `+PONG`, or, with a password, `-NOAUTH`.
async fn ping(port: u16) -> bool {
    let answer = async {
        let mut stream =
            tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))).await?;
        stream.write_all(b"PING\r\n").await?;
        let mut buffer = [0u8; 7];
        stream.read_exact(&mut buffer).await?;
        std::io::Result::Ok(buffer)
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(1), answer).await,
        Ok(Ok(buffer)) if &buffer == b"+PONG\r\n" || &buffer == b"-NOAUTH"
    )
}

async fn write_command(
    stream: &mut (impl tokio::io::AsyncWrite + Unpin),
    args: &[&str],
) -> anyhow::Result<()> {
    let mut bytes = format!("*{}\r\n", args.len());
    for arg in args {
        bytes += &format!("${}\r\n{arg}\r\n", arg.len());
    }
    stream.write_all(bytes.as_bytes()).await?;
    Ok(stream.flush().await?)
}

/// One RESP2 answer: a line, or a bulk string or array of them.
async fn read_answer(
    stream: &mut (impl tokio::io::AsyncBufRead + Unpin),
) -> anyhow::Result<String> {
    let mut line = String::new();
    stream.read_line(&mut line).await?;
    let line = line.trim_end();
    let (kind, rest) = line
        .split_at_checked(1)
        .context("Redis closed the connection")?;
    match kind {
        "+" | ":" => Ok(rest.to_owned()),
        "-" => anyhow::bail!("Redis answered an error: {rest}"),
        "$" if rest == "-1" => Ok(String::new()),
        "$" => {
            let mut bulk = vec![0; rest.parse::<usize>()? + 2];
            stream.read_exact(&mut bulk).await?;
            bulk.truncate(bulk.len() - 2);
            Ok(String::from_utf8(bulk)?)
        }
        "*" => {
            let mut items = Vec::new();
            for _ in 0..rest.parse::<usize>()? {
                items.push(Box::pin(read_answer(stream)).await?);
            }
            Ok(items.join("\n"))
        }
        _ => anyhow::bail!("Redis answered {line:?}"),
    }
}

// =============================================================================
// nginx
// =============================================================================

/// nginx on a free loopback port, proxying `/mcp` round robin to upstreams on loopback.
///
/// One process (`master_process off`), so killing its PID stops it all. An upstream that fails
/// once is skipped for a second (`max_fails=1 fail_timeout=1s`). The access log records the
/// upstream(s) each request went to, see [`Nginx::upstream_hits`].
pub struct Nginx {
    port: u16,
    dir: TempDir,
    child: Option<Child>,
}

impl Nginx {
    /// Starts nginx in front of the servers on `upstreams` and waits until it accepts.
    pub async fn round_robin(upstreams: &[u16]) -> anyhow::Result<Self> {
        Self::start(upstreams, "").await
    }

    /// Like [`Nginx::round_robin`], but each client address always reaches the same upstream
    /// (`ip_hash`), as a pre-2026 client's session needs: on loopback, one upstream for all.
    pub async fn by_client_address(upstreams: &[u16]) -> anyhow::Result<Self> {
        Self::start(upstreams, "        ip_hash;\n").await
    }

    async fn start(upstreams: &[u16], balance: &str) -> anyhow::Result<Self> {
        let dir = temp_dir("nginx");
        let port = free_port();
        let tmp = dir.path().display();
        let servers: String = upstreams
            .iter()
            .map(|upstream| {
                format!("        server 127.0.0.1:{upstream} max_fails=1 fail_timeout=1s;\n")
            })
            .collect();
        let config = format!(
            "daemon off;
master_process off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log notice;
events {{
    worker_connections 1024;
}}
http {{
    log_format upstreams '$upstream_addr $upstream_status $status';
    access_log {tmp}/access.log upstreams;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    upstream mcp {{
{balance}{servers}        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        location = /mrtr-ready {{
            return 200 \"{tmp}\";
        }}
        location /mcp {{
            proxy_pass http://mcp;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 120s;
        }}
    }}
}}
"
        );
        let config_path = dir.path().join("nginx.conf");
        std::fs::write(&config_path, config)?;
        let error_log = dir.path().join("error.log");
        let mut child = Command::new(program("nginx")?)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(&config_path)
            .arg("-e")
            .arg(&error_log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(File::create(dir.path().join("stderr.log"))?))
            .spawn()
            .context("spawn nginx")?;
        // Its own answer, not just a listener on the port: another test's server may have
        // taken the port between `free_port` and this bind.
        let own = tmp.to_string();
        let ready = wait_until_ready("nginx", &mut child, &error_log, || {
            answers_with(port, "/mrtr-ready", own.clone())
        })
        .await;
        let nginx = Self {
            port,
            dir,
            child: Some(child),
        };
        ready.map(|()| nginx)
    }

    /// `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// How many requests nginx passed to each upstream port so far, attempts that failed over
    /// to the next upstream included.
    pub fn upstream_hits(&self) -> BTreeMap<u16, usize> {
        let mut hits = BTreeMap::new();
        for line in read(&self.dir.path().join("access.log")).lines() {
            let upstreams = line.split(' ').take_while(|word| !word.is_empty());
            // `$upstream_addr` lists every upstream tried, as `A, B`.
            for addr in upstreams.map(|word| word.trim_end_matches(',')) {
                if let Some(port) = addr
                    .rsplit_once(':')
                    .and_then(|(_, port)| port.parse().ok())
                {
                    *hits.entry(port).or_default() += 1;
                }
            }
        }
        hits
    }

    /// Everything nginx wrote to its error log.
    pub fn error_log(&self) -> String {
        read(&self.dir.path().join("error.log"))
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        kill(&mut self.child);
    }
}

// =============================================================================
// wizard-http
// =============================================================================

/// One `wizard-http` process: the wizard over stateless Streamable HTTP at
/// `http://127.0.0.1:PORT/mcp`, configured from `MRTR_KEYS` and `MRTR_REDIS_URL`.
///
/// Its log (stderr, at `info` for mrtr and the examples) goes to one file that every restart
/// appends to, so [`WizardInstance::log`] holds all it ever logged.
pub struct WizardInstance {
    program: PathBuf,
    port: u16,
    keys: String,
    redis_url: String,
    /// More environment variables for the process.
    env: Vec<(String, String)>,
    dir: TempDir,
    child: Option<Child>,
}

impl WizardInstance {
    /// Starts `program` (see [`wizard_http!`](crate::wizard_http)) on `port` and waits until
    /// it accepts connections.
    pub async fn start(
        program: &Path,
        port: u16,
        keys: &str,
        redis_url: &str,
    ) -> anyhow::Result<Self> {
        Self::start_with_env(program, port, keys, redis_url, &[]).await
    }

    /// [`WizardInstance::start`], with more environment variables for the process.
    pub async fn start_with_env(
        program: &Path,
        port: u16,
        keys: &str,
        redis_url: &str,
        env: &[(&str, &str)],
    ) -> anyhow::Result<Self> {
        let mut instance = Self {
            program: program.to_owned(),
            port,
            keys: keys.to_owned(),
            redis_url: redis_url.to_owned(),
            env: env
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            dir: temp_dir("wizard"),
            child: None,
        };
        instance.restart().await?;
        Ok(instance)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT/mcp`, without the proxy.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Kills the process with SIGKILL: a real death, nothing flushed or finished.
    pub fn kill(&mut self) {
        kill(&mut self.child);
    }

    /// Starts the process again on the same port (killing it first if it runs) and waits until
    /// it accepts connections.
    pub async fn restart(&mut self) -> anyhow::Result<()> {
        self.kill();
        let log_path = self.log_path();
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)?;
        let mut child = Command::new(&self.program)
            .arg(format!("127.0.0.1:{}", self.port))
            .env("MRTR_KEYS", &self.keys)
            .env("MRTR_REDIS_URL", &self.redis_url)
            .env("RUST_LOG", "warn,mrtr=info,mrtr_examples=info")
            .env("NO_COLOR", "1")
            .envs(self.env.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .with_context(|| format!("spawn {}", self.program.display()))?;
        // Its own line, not just a listener on the port: another test's server may have taken
        // the port between `free_port` and this bind, and would accept connections instead.
        let serving = format!("at http://127.0.0.1:{}/mcp", self.port);
        let before = read(&log_path).matches(&serving).count();
        let ready = wait_until_ready("wizard-http", &mut child, &log_path, || {
            let bound = read(&log_path).matches(&serving).count() > before;
            async move { bound }
        })
        .await;
        self.child = Some(child);
        ready
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("wizard.log")
    }

    /// Everything the process logged, across restarts.
    pub fn log(&self) -> String {
        read(&self.log_path())
    }
}

impl Drop for WizardInstance {
    fn drop(&mut self) {
        self.kill();
    }
}

// =============================================================================
// A fleet
// =============================================================================

/// Redis, `instances` wizards sharing it and [`FLEET_KEYS`], and nginx round robin in front.
pub struct Fleet {
    pub redis: RedisServer,
    pub instances: Vec<WizardInstance>,
    pub nginx: Nginx,
}

impl Fleet {
    pub async fn start(program: &Path, instances: usize) -> anyhow::Result<Self> {
        let redis = RedisServer::start().await?;
        let mut started = Vec::with_capacity(instances);
        for _ in 0..instances {
            started
                .push(WizardInstance::start(program, free_port(), FLEET_KEYS, &redis.url()).await?);
        }
        let ports: Vec<u16> = started.iter().map(WizardInstance::port).collect();
        let nginx = Nginx::round_robin(&ports).await?;
        Ok(Self {
            redis,
            instances: started,
            nginx,
        })
    }

    /// The proxy's URL: every request goes to the next instance in turn.
    pub fn url(&self) -> String {
        self.nginx.url()
    }

    /// How many lines containing `text` all instances logged together.
    pub fn count_logged(&self, text: &str) -> usize {
        self.instances
            .iter()
            .map(|instance| instance.log().lines().filter(|l| l.contains(text)).count())
            .sum()
    }

    /// How many requests nginx passed to each instance (by index) so far.
    pub fn requests_per_instance(&self) -> Vec<usize> {
        let hits = self.nginx.upstream_hits();
        self.instances
            .iter()
            .map(|instance| hits.get(&instance.port()).copied().unwrap_or(0))
            .collect()
    }

    /// The logs of every instance and nginx's error log, for a failure message.
    pub fn logs(&self) -> String {
        let mut all = String::new();
        for (index, instance) in self.instances.iter().enumerate() {
            all += &format!("--- instance {index} ---\n{}", instance.log());
        }
        all + &format!("--- nginx ---\n{}", self.nginx.error_log())
    }
}

/// The line the wizard's `signup` logs when it signs Ada up to `team` on the pro plan: the
/// call's one effect.
pub fn signup_effect(team: &str) -> String {
    format!("signed up Ada to {team} on the pro plan")
}

// =============================================================================
// A client that retries
// =============================================================================

/// A client of a fleet that, like a careful real one, sends a failed request again with the
/// same params (same state, same answers) after a pause, until an answer or a deadline.
///
/// It retries what a server that is failing over may answer: a transport failure (the proxy's
/// 502 while an instance dies), for which it connects afresh, and `-32603`. Any other JSON-RPC
/// error fails at once.
pub struct PatientClient {
    url: String,
    client: Option<Client>,
    /// Attempts that failed, of every request so far.
    pub failures: usize,
}

/// The pause before a failed request is sent again.
pub const RETRY_PAUSE: Duration = Duration::from_millis(200);

/// Why one attempt failed.
enum Failure {
    /// Worth sending again.
    Retry(String),
    Fatal(ErrorData),
}

impl PatientClient {
    /// A client of `url`; it connects on its first request.
    pub fn new(url: &str) -> Self {
        Self {
            url: url.to_owned(),
            client: None,
            failures: 0,
        }
    }

    /// Sends `params` until the server answers with a question or a result, or `deadline`.
    pub async fn send(
        &mut self,
        params: &CallToolRequestParams,
        deadline: Instant,
    ) -> anyhow::Result<Reply> {
        let give_up = tokio::time::Instant::from_std(deadline);
        loop {
            let failure = match tokio::time::timeout_at(give_up, self.try_once(params)).await {
                Ok(Ok(reply)) => return Ok(reply),
                Ok(Err(Failure::Retry(failure))) => failure,
                Ok(Err(Failure::Fatal(error))) => anyhow::bail!("refused: {error:?}"),
                Err(_) => "no answer by the deadline".to_owned(),
            };
            self.failures += 1;
            if Instant::now() + RETRY_PAUSE > deadline {
                anyhow::bail!(
                    "no answer after {} failed attempts; the last: {failure}",
                    self.failures
                );
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    async fn try_once(&mut self, params: &CallToolRequestParams) -> Result<Reply, Failure> {
        let client = match &mut self.client {
            Some(client) => client,
            empty => empty.insert(
                mrtr_examples::demo::connect(&self.url)
                    .await
                    .map_err(|error| Failure::Retry(format!("connect: {error:#}")))?,
            ),
        };
        match send(client, params.clone()).await {
            Ok(reply) => Ok(reply),
            Err(ServiceError::McpError(error)) if error.code == ErrorCode::INTERNAL_ERROR => {
                Err(Failure::Retry(format!("{error:?}")))
            }
            Err(ServiceError::McpError(error)) => Err(Failure::Fatal(error)),
            Err(other) => {
                self.client = None;
                Err(Failure::Retry(format!("transport: {other}")))
            }
        }
    }
}
