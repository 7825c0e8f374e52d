//! The `hookrt` command as a standalone executable: the same [`hookrt::cli`] as the addon's
//! `runCli`, without Node's startup, for hosts that spawn `hookrt listen` per session.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A one-shot command (`run`, `validate`, …) is over in milliseconds: threads it would never
    // use cost a third of its start-up. `listen` and `serve` answer many calls at once and get two.
    let builder = if args.iter().any(|a| a == "listen" || a == "serve") {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(2);
        b
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    let rt = match { builder }.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("hookrt: cannot start the async runtime: {e}");
            std::process::exit(1);
        }
    };
    let code = rt.block_on(async {
        let token = tokio_util::sync::CancellationToken::new();
        let t = token.clone();
        tokio::spawn(async move {
            use tokio::signal::unix::{signal, SignalKind};
            let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
                return;
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            t.cancel();
        });
        hookrt::cli::main(args, token).await
    });
    // Do not wait for a stdin reader blocked in read(2).
    rt.shutdown_background();
    std::process::exit(code);
}
