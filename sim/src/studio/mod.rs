//! `mafia studio`: a designer's studio in the browser (issue 37). A local
//! web server (axum on tokio) serving one page and a small JSON API over
//! the library the command line is made of — no second implementation of
//! setups, rules, strategies, tables or plots:
//!
//! - a setup is a [`form::Form`] written as the setup file TOML a person
//!   would write, read by the command line's own reader
//!   ([`crate::input::parse_setup`]);
//! - a run, a comparison and a sweep are the `run` and `compare` commands
//!   run by [`crate::tables_with`] with the setup held in memory and a
//!   [`crate::exec::Watch`] on the executor (progress after every block, a
//!   cancel flag of the run's own); the page hears the progress over
//!   server-sent events;
//! - the night calculator is `mafia resolve`'s reader and trace, the
//!   heatmap `plot.rs`'s.
//!
//! Safe to leave running: it listens on loopback unless `--listen` names
//! another address (with a warning); one run at a time (a second is
//! refused with a message); runs are cancellable and bounded by
//! `--max-games`; request bodies by [`BODY_LIMIT`]; nothing is read from
//! disk, and files are written only into `--out-dir`, by plain file names.
//! The games play on threads of their own (rayon inside, as on the command
//! line), never on the async executor.

mod api;
mod form;

use crate::error::Error;
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// The largest request body the server reads (a setup or a night file is a
/// few kilobytes).
pub const BODY_LIMIT: usize = 256 * 1024;

/// The default port on loopback.
pub const DEFAULT_PORT: u16 = 8765;

#[derive(Args, Debug, Clone)]
pub struct StudioArgs {
    /// The port on 127.0.0.1 (loopback: only this machine can connect).
    #[arg(long, value_name = "PORT", conflicts_with = "listen")]
    pub port: Option<u16>,
    /// Listen on another address, `IP:PORT` (e.g. 0.0.0.0:8765): anyone who can reach it can run games. Prints a warning unless it is loopback.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Do not open the page in a browser.
    #[arg(long)]
    pub no_open: bool,
    /// The folder the page may save tables and setups into (by file name only); without it nothing is written.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// The most games per variant a run from the page may ask for.
    #[arg(long, value_name = "N", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    /// Worker threads of a run (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// What a studio serves with: the address, the output folder, the bounds.
#[derive(Clone, Debug)]
pub struct StudioOptions {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// The only folder written into (`None`: nothing is written).
    pub out_dir: Option<PathBuf>,
    /// The most games per variant of one run.
    pub max_games: u64,
    /// Worker threads of a run (0 = every core).
    pub threads: usize,
}

impl StudioOptions {
    /// Loopback on `port`, nothing written, 10 million games at most.
    pub fn loopback(port: u16) -> StudioOptions {
        StudioOptions {
            listen: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port),
            out_dir: None,
            max_games: 10_000_000,
            threads: 0,
        }
    }
}

/// A studio serving on a thread of its own; dropping it stops the server.
pub struct Studio {
    /// The address it listens on.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Studio {
    /// The page's address, `http://IP:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Starts a studio: binds `o.listen` (refused: an [`Error::Invalid`] naming
/// the address) and serves on a thread of its own.
pub fn start_studio(o: StudioOptions) -> Result<Studio, Error> {
    if let Some(dir) = &o.out_dir
        && !dir.is_dir()
    {
        return Err(Error::Invalid(format!("--out-dir {}: not a folder (make it first)", dir.display())));
    }
    let listener = std::net::TcpListener::bind(o.listen)
        .map_err(|e| Error::Invalid(format!("cannot listen on {}: {e}", o.listen)))?;
    listener.set_nonblocking(true).map_err(|e| Error::Io(format!("{}: {e}", o.listen)))?;
    let addr = listener.local_addr().map_err(|e| Error::Io(format!("{}: {e}", o.listen)))?;
    // Two threads answer requests; the games play on threads of their own.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Threads(format!("cannot start the server's runtime: {e}")))?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = api::router(o);
    let thread = std::thread::Builder::new()
        .name("studio".into())
        .spawn(move || {
            rt.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
                let _ = axum::serve(listener, router)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
            // Open event streams do not hold the process: the runtime goes.
            rt.shutdown_background();
        })
        .map_err(|e| Error::Threads(format!("cannot start the server's thread: {e}")))?;
    Ok(Studio { addr, stop: Some(stop), thread: Some(thread) })
}

pub fn cmd_studio(a: StudioArgs) -> Result<(), Error> {
    let listen = match (a.listen, a.port) {
        (Some(l), _) => l,
        (None, p) => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), p.unwrap_or(DEFAULT_PORT)),
    };
    crate::args::check_threads(a.threads)?;
    if !listen.ip().is_loopback() {
        eprintln!(
            "warning: listening on {listen}, not loopback: anyone who can reach this address can run games on this \
             machine (and save into --out-dir, if given). Use it on a network you trust."
        );
    }
    let studio =
        start_studio(StudioOptions { listen, out_dir: a.out_dir, max_games: a.max_games, threads: a.threads })?;
    let url = studio.url();
    println!("Mafia Lab studio: {url}  (Ctrl-C to stop)");
    if !a.no_open {
        open_browser(&url);
    }
    studio.wait();
    Ok(())
}

/// Opens `url` with `xdg-open` where there is one; never fails.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => {}
        Err(_) => eprintln!("note: no browser opener ({opener}) found; open {url} yourself"),
    }
}
